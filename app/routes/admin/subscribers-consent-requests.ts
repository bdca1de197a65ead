/**
 * POST /dashboard/subscribers/consent-requests: "Ask for consent" (issue 42
 * item 5). Imported addresses with implied consent that has not ended, never
 * asked before, are each sent one request for express consent — itself a
 * commercial electronic message under CASL — by the `consent-requests` job,
 * at most CONSENT_REQUESTS_PER_DAY a day; the rest wait for the next day.
 * Needs the box ticked (asked once); recorded in Activity.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/subscribers-consent-requests";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { consentRequestState, queueConsentRequests } from "~/.server/db/subscriber-imports";
import { getEnv } from "~/.server/env";
import { servicesContext } from "~/.server/http/request-context";
import { log } from "~/.server/log";
import { formText } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "subscribers" } satisfies RouteHandle;

export const CONSENT_REQUEST_MSG = {
  confirm: "Tick the box to confirm that you want to send the requests for consent.",
  none: "No imported address is waiting to be asked for consent.",
  failed: MSG.updateError,
  queued: (n: number, today: number, perDay: number) =>
    today >= n
      ? `${n.toLocaleString("en-CA")} requests for consent are going out now.`
      : `${n.toLocaleString("en-CA")} requests for consent are queued: ${today.toLocaleString("en-CA")} go out today, the other ${(n - today).toLocaleString("en-CA")} on the following days (at most ${perDay.toLocaleString("en-CA")} a day).`,
} as const;

export function loader() {
  return redirect("/dashboard/subscribers");
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, CONSENT_REQUEST_MSG.failed);
  if (isRefusal(actor)) return actor;
  const back = async (tone: "success" | "error", text: string) =>
    redirect("/dashboard/subscribers#consent-title", { headers: await flashHeaders({ tone, text }) });
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  if (formText(form, "confirm") !== "yes") return back("error", CONSENT_REQUEST_MSG.confirm);
  const perDay = getEnv().CONSENT_REQUESTS_PER_DAY;
  try {
    const before = await consentRequestState(perDay);
    const queued = await queueConsentRequests(actor);
    if (!queued) return back("error", CONSENT_REQUEST_MSG.none);
    const roomToday = Math.max(0, perDay - before.sentToday - before.waiting);
    void context
      .get(servicesContext)
      .jobQueue?.boss.send("consent-requests", null)
      .catch(() => {});
    return back("success", CONSENT_REQUEST_MSG.queued(queued, Math.min(queued, roomToday), perDay));
  } catch (error) {
    log("error", "consent requests could not be queued", { error: (error as Error).message.slice(0, 200) });
    return back("error", CONSENT_REQUEST_MSG.failed);
  }
}

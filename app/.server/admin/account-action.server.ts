/**
 * The actions of one's own account pages (My account, two-factor sign-in):
 * one frame around what each intent does, and the way back to My account.
 */
import { data, redirect } from "react-router";
import { formValues, type FormValues } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import type { Actor } from "../db/audit";
import type { StaffSession } from "../auth/staff-session";
import { isRefusal, readForm, type FailureData } from "../http/form-post";
import type { RequestContext } from "../http/request-context";
import { log } from "../log";
import { flashHeaders } from "./flash.server";
import { actorOf, staffOf } from "./guard.server";

/** Back to My account with `text` as the success message, carrying the cookies better-auth set (a renewed session). */
export async function backToAccount(text: string, cookies?: Headers) {
  const headers = await flashHeaders({ tone: "success", text });
  for (const c of cookies?.getSetCookie() ?? []) headers.append("Set-Cookie", c);
  return redirect("/dashboard/account", { headers });
}

/**
 * An account page's action: who acts and the values they sent, handed to
 * `run`, which answers each intent it knows (undefined for any other: an
 * unreadable form, 400). A failure is logged as `what` and answered with
 * `failure` (500): nothing was changed.
 */
export async function accountAction<T>(
  { request, context }: { request: Request; context: RequestContext },
  failure: string,
  what: string,
  run: (who: { actor: Actor; staff: StaffSession }, values: FormValues) => Promise<T | undefined>,
) {
  const actor = actorOf(context, failure);
  if (isRefusal(actor)) return actor;
  const staff = staffOf(context);
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  try {
    const answer = await run({ actor, staff }, formValues(form));
    return answer ?? data<FailureData>({ status: { tone: "error", text: MSG.unreadableForm } }, { status: 400 });
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", what, { error: (error as Error).message });
    return data<FailureData>({ status: { tone: "error", text: failure } }, { status: 500 });
  }
}

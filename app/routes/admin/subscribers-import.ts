/**
 * POST /dashboard/subscribers/import: existing contacts (a CSV file or pasted
 * addresses, the first column of each line), each added as pending and sent
 * a confirmation e-mail: an import never marks anyone confirmed. Suppressed
 * (erased) and confirmed addresses get nothing. Recorded in Activity.
 */
import { redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/subscribers-import";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import { isRefusal, readForm, uploadedFile } from "~/.server/http/form-post";
import { recordAudit } from "~/.server/db/audit";
import { log } from "~/.server/log";
import { requestAndConfirm } from "~/.server/subscriptions/subscribe-form.server";
import { formText, formValues } from "~/lib/forms/form-data";
import { addressTooLong, isTopic, normalizeAddress } from "~/lib/forms/subscribe";
import { MSG } from "~/lib/forms/messages";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "subscribers" } satisfies RouteHandle;

/** At most this many addresses in one import. */
export const IMPORT_MAX = 2000;
const MAX_IMPORT_BYTES = 1024 * 1024;

export const IMPORT_MSG = {
  failed: MSG.updateError,
  empty: "No e-mail address was found. Choose a CSV file or paste addresses, one per line.",
  topics: "Choose at least one topic to ask them about.",
  tooMany: `At most ${IMPORT_MAX.toLocaleString("en-CA")} addresses can be imported at once.`,
} as const;

/** A deliverable address: valid, and no longer than RFC 5321 allows (a longer one is skipped). */
const address = z.email().refine((a) => !addressTooLong(a));

/** The addresses of a CSV or pasted list: the first cell of each line, unquoted, lower-cased, each once; the rest skipped. */
export function addressesIn(text: string): { addresses: string[]; skipped: number } {
  const seen = new Set<string>();
  let skipped = 0;
  for (const line of text.split(/\r?\n/)) {
    const cell = normalizeAddress((line.split(/[,;\t]/)[0] ?? "").replace(/^["']|["']$/g, ""));
    if (!cell || cell === "email" || cell === "e-mail") continue;
    if (address.safeParse(cell).success) seen.add(cell);
    else skipped++;
  }
  return { addresses: [...seen], skipped };
}

export function loader() {
  return redirect("/dashboard/subscribers");
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, IMPORT_MSG.failed);
  if (isRefusal(actor)) return actor;
  const staff = staffOf(context);
  const back = async (tone: "success" | "error", text: string) =>
    redirect("/dashboard/subscribers", { headers: await flashHeaders({ tone, text }) });
  const form = await readForm(request, MAX_IMPORT_BYTES);
  if (isRefusal(form)) return form;
  const topics = [...new Set(formValues(form, ["topics"]).topics as string[])].filter(isTopic);
  if (!topics.length) return back("error", IMPORT_MSG.topics);
  const file = uploadedFile(form, "file");
  const text = `${file ? await file.text() : ""}\n${formText(form, "addresses")}`;
  const { addresses, skipped } = addressesIn(text);
  if (!addresses.length) return back("error", IMPORT_MSG.empty);
  if (addresses.length > IMPORT_MAX) return back("error", IMPORT_MSG.tooMany);
  let asked = 0;
  try {
    const formUrl = `import by ${staff.email} on ${new Date().toISOString()}`;
    for (const email of addresses) if (await requestAndConfirm({ email, topics, formUrl, source: "import" })) asked++;
    await recordAudit(undefined, actor, {
      action: "import",
      itemType: "subscriber",
      itemLabel: `Import of ${addresses.length} addresses: ${asked} asked to confirm`,
      changes: { confirmations: { after: asked }, skipped: { after: skipped } },
    });
  } catch (error) {
    log("error", "subscriber import failed", { error: (error as Error).message.slice(0, 200) });
    return back("error", IMPORT_MSG.failed);
  }
  return back(
    "success",
    `${addresses.length} addresses read; ${asked} confirmation e-mails sent (an address already confirmed, erased, or asked within the hour gets none)${skipped ? `; ${skipped} lines were not e-mail addresses and were skipped` : ""}.`,
  );
}

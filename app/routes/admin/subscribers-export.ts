/**
 * GET /dashboard/subscribers/export: every consent record with its address,
 * as CSV (what a CRTC question asks for): the address, its status now, and
 * each event (requested, imported, confirmed, topics changed, withdrawn,
 * bounced) with its topics, the consent wording and version, the form's
 * address, how and when. Recorded in Activity.
 */
import type { Route } from "./+types/subscribers-export";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal } from "~/.server/http/form-post";
import { recordAudit } from "~/.server/db/audit";
import { allConsentRecords } from "~/.server/db/subscribers";
import { csvBody, csvHeaders } from "~/lib/csv";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "subscribers" } satisfies RouteHandle;

export async function loader({ context }: Route.LoaderArgs) {
  const actor = actorOf(context, "The export could not be made.");
  if (isRefusal(actor)) return actor;
  const records = await allConsentRecords();
  const lines = [
    [
      "email",
      "status_now",
      "event",
      "topics",
      "consent_wording_version",
      "consent_wording",
      "form_url",
      "source",
      "at_utc",
      "consent_kind",
      "consent_date",
      "implied_basis",
      "consent_ends_utc",
    ],
    ...records.map((r) => [
      r.email,
      r.status,
      r.event,
      r.topics.join(" "),
      r.wording_version,
      r.wording,
      r.form_url,
      r.source,
      r.at.toISOString(),
      // An import's evidence (issue 42): the kind, the date consent was given, implied consent's basis and end.
      r.consent_kind,
      r.consent_date ? r.consent_date.toISOString().slice(0, 10) : "",
      r.implied_basis,
      r.expires_at ? r.expires_at.toISOString() : "",
    ]),
  ];
  await recordAudit(undefined, actor, { action: "export", itemType: "subscriber", itemLabel: `Consent records (${records.length})` });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvBody(lines), { headers: csvHeaders(`consent-records-${day}.csv`) });
}

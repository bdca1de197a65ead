/**
 * GET /dashboard/enquiries/export (owners and admins): the enquiries the
 * screen shows (its `state` filter, or all), every field, as CSV through the
 * one helper (every cell quoted, formulas neutralised: a sender writes what
 * they like). Recorded in Activity.
 */
import type { Route } from "./+types/enquiries-export";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal } from "~/.server/http/form-post";
import { recordAudit } from "~/.server/db/audit";
import { enquiriesForExport } from "~/.server/db/enquiries";
import { csvBody, csvHeaders } from "~/lib/csv";
import { ENQUIRY_STATES, type EnquiryState } from "~/lib/forms/enquiry";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "enquiries" } satisfies RouteHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = actorOf(context, "The export could not be made.");
  if (isRefusal(actor)) return actor;
  const stateParam = new URL(request.url).searchParams.get("state") ?? "";
  const state = (ENQUIRY_STATES as readonly string[]).includes(stateParam) ? (stateParam as EnquiryState) : undefined;
  const rows = await enquiriesForExport(state);
  const lines = [
    [
      "id",
      "received_utc",
      "name",
      "email",
      "phone",
      "practice_area",
      "message",
      "consented_utc",
      "state",
      "staff_note",
      "handled_by",
      "handled_utc",
    ],
    ...rows.map((r) => [
      r.id,
      r.created_at.toISOString(),
      r.name,
      r.email,
      r.phone,
      r.practice_area,
      r.message,
      r.consented_at.toISOString(),
      r.state,
      r.staff_note,
      r.handled_by ?? "",
      r.handled_at?.toISOString() ?? "",
    ]),
  ];
  await recordAudit(undefined, actor, { action: "export", itemType: "enquiry", itemLabel: `Enquiries (${rows.length})` });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvBody(lines), { headers: csvHeaders(`enquiries-${day}.csv`) });
}

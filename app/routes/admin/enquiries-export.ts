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
import { csvBody, csvHeaders, type CsvValue } from "~/lib/csv";
import { ENQUIRY_STATES, type EnquiryState } from "~/lib/forms/enquiry";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "enquiries" } satisfies RouteHandle;

type ExportRow = Awaited<ReturnType<typeof enquiriesForExport>>[number];

/** The file's columns, in order: each one's name (the header line) and its cell for an enquiry. */
const COLUMNS: [string, (r: ExportRow) => CsvValue][] = [
  ["id", (r) => r.id],
  ["received_utc", (r) => r.created_at.toISOString()],
  ["name", (r) => r.name],
  ["email", (r) => r.email],
  ["phone", (r) => r.phone],
  ["practice_area", (r) => r.practice_area],
  ["message", (r) => r.message],
  ["consented_utc", (r) => r.consented_at.toISOString()],
  ["state", (r) => r.state],
  ["staff_note", (r) => r.staff_note],
  ["handled_by", (r) => r.handled_by ?? ""],
  ["handled_utc", (r) => r.handled_at?.toISOString() ?? ""],
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = actorOf(context, "The export could not be made.");
  if (isRefusal(actor)) return actor;
  const stateParam = new URL(request.url).searchParams.get("state") ?? "";
  const state = (ENQUIRY_STATES as readonly string[]).includes(stateParam) ? (stateParam as EnquiryState) : undefined;
  const rows = await enquiriesForExport(state);
  const lines = [COLUMNS.map(([name]) => name), ...rows.map((r) => COLUMNS.map(([, cell]) => cell(r)))];
  await recordAudit(undefined, actor, { action: "export", itemType: "enquiry", itemLabel: `Enquiries (${rows.length})` });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvBody(lines), { headers: csvHeaders(`enquiries-${day}.csv`) });
}

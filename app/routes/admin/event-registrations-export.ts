/**
 * GET /dashboard/events/:id/registrations/export (issue 45; permission
 * "event-registrations"): the registrations the screen's search selects (or
 * all), every field, as CSV through the one helper (lib/csv.ts: every cell
 * quoted, formulas neutralised — a registrant types what they like).
 * Recorded in Activity.
 */
import type { Route } from "./+types/event-registrations-export";
import { listSearch } from "~/lib/list-search";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal, parseId } from "~/.server/http/form-post";
import { recordAudit } from "~/.server/db/audit";
import { getEventById } from "~/.server/db/event-editing";
import { registrationsForExport } from "~/.server/db/event-registrations";
import { csvBody, csvHeaders } from "~/lib/csv";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "event-registrations" } satisfies RouteHandle;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = actorOf(context, "The export could not be made.");
  if (isRefusal(actor)) return actor;
  const id = parseId(params.id);
  const event = id ? await getEventById(id, { withTrashed: true }) : undefined;
  if (!event) throw new Response("Not found", { status: 404 });
  const q = listSearch(new URL(request.url).searchParams.get("q"));
  const rows = await registrationsForExport(event.id, q);
  const lines = [
    [
      "id",
      "status",
      "name",
      "email",
      "organisation",
      "title",
      "accessibility_needs",
      "registered_utc",
      "cancelled_utc",
      "attended_marked_utc",
      "certificate_sent_utc",
    ],
    ...rows.map((r) => [
      r.id,
      r.status,
      r.name,
      r.email,
      r.organisation,
      r.job_title,
      r.accessibility_needs,
      r.created_at.toISOString(),
      r.cancelled_at?.toISOString() ?? "",
      r.attended_at?.toISOString() ?? "",
      r.certificate_sent_at?.toISOString() ?? "",
    ]),
  ];
  await recordAudit(undefined, actor, {
    action: "export",
    itemType: "event",
    itemId: event.id,
    itemLabel: `Registrations of ${event.title} (${rows.length})`,
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvBody(lines), { headers: csvHeaders(`registrations-${event.id}-${day}.csv`) });
}

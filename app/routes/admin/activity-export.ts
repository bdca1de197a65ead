/**
 * GET /dashboard/activity/export (owners and admins): the Activity entries
 * the screen's filters select (the same query parameters), newest first, at
 * most ACTIVITY_EXPORT_MAX, as CSV through the one helper (every cell quoted,
 * formulas neutralised: item labels and changes hold what people typed).
 * Recorded in Activity.
 */
import type { Route } from "./+types/activity-export";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal } from "~/.server/http/form-post";
import { activityFiltersOf, activityForExport, activityPeople } from "~/.server/db/activity";
import { recordAudit } from "~/.server/db/audit";
import { csvBody, csvHeaders } from "~/lib/csv";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "activity" } satisfies RouteHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = actorOf(context, "The export could not be made.");
  if (isRefusal(actor)) return actor;
  const { filters } = activityFiltersOf(new URL(request.url).searchParams, await activityPeople());
  const rows = await activityForExport(filters);
  const lines = [
    ["at_utc", "person", "ip_address", "action", "item_type", "item_id", "item", "changes"],
    ...rows.map((r) => [
      r.at.toISOString(),
      r.actorLabel,
      r.ip,
      r.action,
      r.itemType,
      r.itemId ?? "",
      r.itemLabel,
      r.changes ? JSON.stringify(r.changes) : "",
    ]),
  ];
  await recordAudit(undefined, actor, { action: "export", itemType: "site", itemLabel: `Activity (${rows.length} entries)` });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvBody(lines), { headers: csvHeaders(`activity-${day}.csv`) });
}

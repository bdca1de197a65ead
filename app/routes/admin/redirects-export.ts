/**
 * GET /dashboard/redirects/export: every redirect as CSV (old address, new
 * address, status, match, enabled, made by, hits, last hit, note): what the
 * Redirects screen's import reads back (its first four columns).
 */
import type { Route } from "./+types/redirects-export";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal } from "~/.server/http/form-post";
import { recordAudit } from "~/.server/db/audit";
import { allRedirects } from "~/.server/db/redirects";
import { csvBody, csvHeaders } from "~/lib/csv";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "redirects" } satisfies RouteHandle;

export async function loader({ context }: Route.LoaderArgs) {
  const actor = actorOf(context, "The export could not be made.");
  if (isRefusal(actor)) return actor;
  const rows = await allRedirects();
  const lines = [
    ["source", "target", "status", "match", "enabled", "origin", "hits", "last_hit_utc", "note"],
    ...rows.map((r) => [
      r.match === "exact" && r.query ? `${r.source}?${r.query}` : r.source,
      r.target,
      r.status,
      r.match,
      r.enabled ? "yes" : "no",
      r.origin,
      r.hits,
      r.last_hit_at?.toISOString() ?? "",
      r.note,
    ]),
  ];
  await recordAudit(undefined, actor, { action: "export", itemType: "redirect", itemLabel: `Redirects (${rows.length})` });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csvBody(lines), { headers: csvHeaders(`redirects-${day}.csv`) });
}

/**
 * GET /dashboard/subscribers/imports/:id/refused: an import's refused rows as
 * CSV (row, address, reason), so the person who imported can mend them in the
 * file and import those rows again. The screen lists the first
 * REFUSALS_SHOWN; this file has every row kept (the first
 * IMPORT_REFUSALS_KEPT). It holds addresses: recorded in Activity.
 */
import type { Route } from "./+types/subscribers-import-refused";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal, parseId } from "~/.server/http/form-post";
import { recordAudit } from "~/.server/db/audit";
import { getImport } from "~/.server/db/subscriber-imports";
import { csvBody, csvHeaders } from "~/lib/csv";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "subscribers" } satisfies RouteHandle;

export async function loader({ params, context }: Route.LoaderArgs) {
  const actor = actorOf(context, "The refused rows could not be made into a file.");
  if (isRefusal(actor)) return actor;
  const id = parseId(params.id);
  const found = id ? await getImport(id) : undefined;
  if (!found) throw new Response("Not found", { status: 404 });
  const lines = [["row", "email", "reason"], ...found.refusals.map((r) => [String(r.row), r.email, r.reason])];
  await recordAudit(undefined, actor, {
    action: "export",
    itemType: "subscriber",
    itemLabel: `Refused rows of import #${found.id} (${found.refusals.length})`,
  });
  return new Response(csvBody(lines), { headers: csvHeaders(`import-${found.id}-refused-rows.csv`) });
}

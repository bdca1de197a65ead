/**
 * GET /dashboard/subscribers/imports/:id: one import's progress alone (rows
 * read, accepted, refused, and the refused rows with their reasons), read
 * every second or two by the Subscribers screen while the import runs.
 */
import type { Route } from "./+types/subscribers-import-progress";
import { parseId } from "~/.server/http/form-post";
import { getImport } from "~/.server/db/subscriber-imports";
import { importView } from "~/lib/subscriber-import-view";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "subscribers" } satisfies RouteHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const found = id ? await getImport(id) : undefined;
  if (!found) throw new Response("Not found", { status: 404 });
  return { import: importView(found) };
}

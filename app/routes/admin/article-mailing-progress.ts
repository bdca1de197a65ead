/**
 * GET /dashboard/articles/:id/mailing/progress: the mailing's progress alone
 * (issue 31), read every few seconds by the Send to subscribers and edit
 * screens while the mailing is going out (components/admin/mailing-progress.tsx).
 */
import type { Route } from "./+types/article-mailing-progress";
import { parseId } from "~/.server/http/form-post";
import { mailingProgress } from "~/.server/db/mailings";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  if (!id) throw new Response("Not found", { status: 404 });
  return { progress: await mailingProgress(id) };
}

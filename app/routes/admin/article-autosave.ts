/**
 * /dashboard/articles/autosave: the article form's working copy, kept
 * (`intent=save`, `article=new|{id}`, `values` as JSON, `version`) or
 * discarded (`intent=discard`) for the signed-in person; never changes the
 * article. JSON: `{ savedAt }` / `{ discarded }`, or `{ error }` when refused
 * (admin/article-drafts.server.ts).
 */
import type { Route } from "./+types/article-autosave";
import { autosaveAction, postOnly } from "~/.server/admin/article-drafts.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

export function loader() {
  return postOnly();
}

export async function action({ request, context }: Route.ActionArgs) {
  return autosaveAction(request, context);
}

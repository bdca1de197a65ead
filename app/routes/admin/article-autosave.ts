/**
 * /dashboard/articles/autosave: the article form's working copy, kept
 * (`intent=save`, `article=new|{id}`, `values` as JSON, `version`) or
 * discarded (`intent=discard`) for the signed-in person; never changes the
 * article. JSON: `{ savedAt }` / `{ discarded }`, or `{ error }` when refused
 * (admin/article-drafts.server.ts).
 */
import type { Route } from "./+types/article-autosave";
import { requireStaff } from "~/.server/auth";
import { autosaveAction, postOnly } from "~/.server/admin/article-drafts.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "content");
  return postOnly();
}

export async function action({ request, context }: Route.ActionArgs) {
  return autosaveAction(request, context);
}

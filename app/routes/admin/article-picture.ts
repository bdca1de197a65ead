/**
 * /dashboard/articles/pictures: a picture for an article body, sent by the
 * editor's "Insert picture" dialog (multipart: `picture`, `alt`). JSON:
 * `{ src, alt, width, height }`, or `{ error, errors }` when refused
 * (admin/article-drafts.server.ts).
 */
import type { Route } from "./+types/article-picture";
import { bodyPictureAction, postOnly } from "~/.server/admin/article-drafts.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

export function loader() {
  return postOnly();
}

export async function action({ request, context }: Route.ActionArgs) {
  return bodyPictureAction(request, context);
}

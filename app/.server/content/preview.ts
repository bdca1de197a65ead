/**
 * Previews of items the public cannot see yet, rendered by the public page's
 * own route module (same markup), at URLs outside the page cache's paths:
 *
 * - `/preview/post/{slug}`, `/preview/lawyer/{slug}`: staff with the
 *   `content` permission (signed in; otherwise the sign-in page and back);
 * - `/preview/event/{slug}`: staff with the `events` permission;
 * - `/preview/shared/post/{token}`, `/preview/shared/lawyer/{token}`: a
 *   share-a-preview link (db/previews.ts), no account needed.
 *
 * Answers are `private, no-store` (never in the page cache, a proxy or a
 * CDN), the page says "Preview — not published" and carries `noindex`.
 */
import { data } from "react-router";
import { requireStaff } from "../auth/staff-session";
import { getArticleById, getArticleBySlugForStaff, type Article } from "../db/articles";
import { resolvePreviewLink } from "../db/previews";
import { getTeamMemberById, getTeamMemberBySlugForStaff, type TeamMember } from "../db/team";
import { getEventBySlugForStaff } from "../db/event-editing";
import type { Event } from "../db/events";

export const PREVIEW_BANNER = "Preview — not published";
export const PREVIEW_CACHE_CONTROL = "private, no-store";

type Mode = "staff" | "shared" | null;

function modeOf(request: Request, kind: "post" | "lawyer" | "event"): Mode {
  const path = new URL(request.url).pathname;
  if (path.startsWith(`/preview/${kind}/`)) return "staff";
  if (path.startsWith(`/preview/shared/${kind}/`)) return "shared";
  return null;
}

/** null: not a preview URL (the public page). Throws the page's 404 when the preview names nothing. */
export async function previewArticle(request: Request, param: string, notFound: unknown): Promise<Article | null> {
  const mode = modeOf(request, "post");
  if (!mode) return null;
  let row: Article | undefined;
  if (mode === "staff") {
    await requireStaff(request, "content");
    row = await getArticleBySlugForStaff(param);
    if (row?.deleted_at) row = undefined;
  } else {
    const id = await resolvePreviewLink("article", param);
    row = id ? await getArticleById(id) : undefined;
  }
  if (!row) throw data(notFound, { status: 404, headers: { "Cache-Control": PREVIEW_CACHE_CONTROL } });
  return row;
}

export async function previewTeamMember(request: Request, param: string, notFound: unknown): Promise<TeamMember | null> {
  const mode = modeOf(request, "lawyer");
  if (!mode) return null;
  let row: TeamMember | undefined;
  if (mode === "staff") {
    await requireStaff(request, "content");
    row = await getTeamMemberBySlugForStaff(param);
  } else {
    const id = await resolvePreviewLink("team", param);
    row = id ? await getTeamMemberById(id) : undefined;
  }
  if (!row) throw data(notFound, { status: 404, headers: { "Cache-Control": PREVIEW_CACHE_CONTROL } });
  return row;
}

/** An event in any state (not in the Trash), for staff who manage events. */
export async function previewEvent(request: Request, param: string, notFound: unknown): Promise<Event | null> {
  if (modeOf(request, "event") !== "staff") return null;
  await requireStaff(request, "events");
  const row = await getEventBySlugForStaff(param);
  if (!row) throw data(notFound, { status: 404, headers: { "Cache-Control": PREVIEW_CACHE_CONTROL } });
  return row;
}

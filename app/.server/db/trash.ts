/**
 * The Trash: deleted articles, team members and events (db/articles.ts,
 * db/team.ts and db/event-editing.ts set `deleted_at`) wait here for TRASH_DAYS. Restore puts one back with its
 * URL (the slug stayed reserved) and picture; "Delete permanently" and the
 * daily sweep remove the row, its revisions and preview links, and (through
 * the caller) its pictures. Each change is recorded in the audit trail.
 */
import { and, desc, eq, isNotNull, lt } from "drizzle-orm";
import { recordAudit, type Actor } from "./audit";
import { contentChanged } from "./content-events";
import { bodyPicturesOfArticle, removeUnusedBodyPictures } from "../pictures/body-pictures";
import { deleteImage } from "../pictures/images";
import { removeBios } from "../content/bio-pdf";
import { deleteRecording } from "../events/recordings";
import { db } from "./client";
import { articles, events, previewLinks, revisions, team } from "./schema";

export const TRASH_DAYS = 30;
export type TrashKind = "article" | "team" | "event";
export const TRASH_KINDS: readonly TrashKind[] = ["article", "team", "event"];

export type TrashItem = { kind: TrashKind; id: number; label: string; deleted_at: Date; img: string };

export async function listTrash(): Promise<TrashItem[]> {
  const [a, t, e] = await Promise.all([
    db()
      .select({ id: articles.id, label: articles.title, deleted_at: articles.deleted_at, img: articles.img })
      .from(articles)
      .where(isNotNull(articles.deleted_at))
      .orderBy(desc(articles.deleted_at)),
    db()
      .select({ id: team.id, label: team.full_name, deleted_at: team.deleted_at, img: team.img })
      .from(team)
      .where(isNotNull(team.deleted_at))
      .orderBy(desc(team.deleted_at)),
    db()
      .select({ id: events.id, label: events.title, deleted_at: events.deleted_at })
      .from(events)
      .where(isNotNull(events.deleted_at))
      .orderBy(desc(events.deleted_at)),
  ]);
  return [
    ...a.map((r) => ({ ...r, kind: "article" as const, deleted_at: r.deleted_at! })),
    ...t.map((r) => ({ ...r, kind: "team" as const, deleted_at: r.deleted_at! })),
    ...e.map((r) => ({ ...r, kind: "event" as const, deleted_at: r.deleted_at!, img: "" })),
  ].sort((x, y) => y.deleted_at.getTime() - x.deleted_at.getTime());
}

function labelOf(row: Record<string, unknown>): string {
  const label = row.full_name ?? row.title;
  return typeof label === "string" ? label : "";
}

function tableOf(kind: TrashKind) {
  return kind === "article" ? articles : kind === "team" ? team : events;
}

/** What content-events announces when an item of this kind changes (the page cache listens). */
function contentOf(kind: TrashKind) {
  return kind === "article" ? "articles" : kind === "team" ? "team" : "events";
}

/** Puts a trashed item back (state, URL and picture as they were); false when it is not in the Trash. */
export async function restoreFromTrash(kind: TrashKind, id: number, actor: Actor): Promise<string | undefined> {
  const table = tableOf(kind);
  const label = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(table)
      .set({ deleted_at: null })
      .where(and(eq(table.id, id), isNotNull(table.deleted_at)))
      .returning();
    if (!row) return undefined;
    const name = labelOf(row);
    await recordAudit(tx, actor, {
      action: "restore",
      itemType: kind,
      itemId: id,
      itemLabel: name,
      changes: { trash: { before: "in the Trash", after: "restored" } },
    });
    return name;
  });
  if (label !== undefined) contentChanged(contentOf(kind));
  return label;
}

/** Removes a trashed item for good, with its revisions, preview links and pictures (an article's body pictures too). */
export async function purgeFromTrash(kind: TrashKind, id: number, actor: Actor): Promise<string | undefined> {
  const table = tableOf(kind);
  const removed = await db().transaction(async (tx) => {
    // Read before the rows that name them go (autosaved copies go with the article: cascade).
    const bodyPictures = kind === "article" ? await bodyPicturesOfArticle(tx, id) : [];
    const [row] = await tx
      .delete(table)
      .where(and(eq(table.id, id), isNotNull(table.deleted_at)))
      .returning();
    if (!row) return undefined;
    await tx.delete(revisions).where(and(eq(revisions.item_type, kind), eq(revisions.item_id, id)));
    await tx.delete(previewLinks).where(and(eq(previewLinks.item_type, kind), eq(previewLinks.item_id, id)));
    const name = labelOf(row);
    await recordAudit(tx, actor, { action: "purge", itemType: kind, itemId: id, itemLabel: name, changes: null });
    // An article's social picture (link previews) goes with it too.
    const socialImg = "social_img" in row ? row.social_img : "";
    return {
      name,
      img: "img" in row ? row.img : "",
      socialImg,
      bodyPictures,
      recording: "recording_url" in row ? row.recording_url : "",
      captions: "recording_captions" in row ? row.recording_captions : "",
    };
  });
  if (!removed) return undefined;
  if (kind !== "event") await deleteImage(kind === "article" ? "articles" : "team", removed.img);
  if (removed.socialImg) await deleteImage("articles", removed.socialImg);
  // A member's stored PDF bios (regenerable; bio-pdf.ts).
  if (kind === "team") await removeBios(id).catch(() => {});
  // An event's uploaded recording.
  if (kind === "event") {
    await deleteRecording(removed.recording);
    await deleteRecording(removed.captions);
  }
  // Those no other article, revision or working copy names.
  await removeUnusedBodyPictures(removed.bodyPictures);
  return removed.name;
}

/** The sweep (jobs.ts): items in the Trash longer than TRASH_DAYS. */
export async function sweepTrash(actor: Actor, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - TRASH_DAYS * 86_400_000);
  let removed = 0;
  for (const kind of TRASH_KINDS) {
    const table = tableOf(kind);
    const due = await db().select({ id: table.id }).from(table).where(lt(table.deleted_at, cutoff));
    for (const { id } of due) if (await purgeFromTrash(kind, id, actor)) removed++;
  }
  return removed;
}

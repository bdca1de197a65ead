/**
 * The article form's autosaved working copies (schema.ts `article_autosaves`):
 * one per person and article, `articleId` null for the new-article form.
 * Never content: writing one changes no article, clears no page cache and is
 * not in the audit trail (the save that follows is).
 */
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { log } from "../log";
import { db } from "./client";
import { articleAutosaves } from "./schema";

export type AutosaveValues = Record<string, string | string[]>;
export type Autosave = { values: AutosaveValues; baseVersion: number | null; savedAt: Date };

/** Working copies older than this are removed by the trash-sweep job. */
export const AUTOSAVE_DAYS = 30;

const slot = (userId: string, articleId: number | null) =>
  and(
    eq(articleAutosaves.user_id, userId),
    articleId === null ? isNull(articleAutosaves.article_id) : eq(articleAutosaves.article_id, articleId),
  );

/** Stores (or replaces) a person's working copy; when it was saved. */
export async function saveAutosave(
  userId: string,
  articleId: number | null,
  values: AutosaveValues,
  baseVersion: number | null,
): Promise<Date> {
  const [row] = await db()
    .insert(articleAutosaves)
    .values({ user_id: userId, article_id: articleId, values, base_version: baseVersion })
    .onConflictDoUpdate({
      target: [articleAutosaves.user_id, articleAutosaves.article_id],
      set: { values, base_version: baseVersion, saved_at: sql`now()` },
    })
    .returning({ saved_at: articleAutosaves.saved_at });
  return row.saved_at;
}

export async function getAutosave(userId: string, articleId: number | null): Promise<Autosave | undefined> {
  const [row] = await db().select().from(articleAutosaves).where(slot(userId, articleId)).limit(1);
  return row ? { values: row.values, baseVersion: row.base_version, savedAt: row.saved_at } : undefined;
}

/** Removes a person's working copy (after a successful save, or Discard); true when there was one. */
export async function deleteAutosave(userId: string, articleId: number | null): Promise<boolean> {
  const removed = await db().delete(articleAutosaves).where(slot(userId, articleId)).returning({ id: articleAutosaves.id });
  return removed.length > 0;
}

/** After a successful save (admin/articles.server.ts): the person's working copy has served its purpose. */
export async function forgetAutosave(userId: string | null, articleId: number | null): Promise<void> {
  if (!userId) return;
  // The save is done; a copy left behind only offers the saved text again (and goes after 30 days).
  await deleteAutosave(userId, articleId).catch((error: unknown) =>
    log("warn", "article draft not removed", { error: (error as Error).message }),
  );
}

/** The trash-sweep job: working copies nobody came back to. */
export async function pruneAutosaves(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - AUTOSAVE_DAYS * 86_400_000);
  const removed = await db().delete(articleAutosaves).where(lt(articleAutosaves.saved_at, cutoff)).returning({ id: articleAutosaves.id });
  return removed.length;
}

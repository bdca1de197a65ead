/**
 * Queries for the dashboard's WordPress dry runs and imports (table
 * `wordpress_imports`; the work is app/.server/wordpress/task.ts, run by the
 * `wordpress-import` job): the row is queued by the screen, claimed by the
 * job on whichever instance runs it, its progress written as it goes and read
 * by the screen from any instance, and its report kept.
 */
import { and, desc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { db } from "./client";
import { wordpressImports } from "./schema";

export type WordPressImport = typeof wordpressImports.$inferSelect;
export type WordPressImportProgress = { phase: string; done: number; total: number; message: string; at?: string };

export async function queueWordPressImport(values: {
  dryRun: boolean;
  fileName: string;
  upload: string;
  choices: Record<string, unknown>;
  createdBy: string;
}): Promise<number> {
  const [row] = await db()
    .insert(wordpressImports)
    .values({
      dry_run: values.dryRun,
      // A control character (a NUL cannot be stored in PostgreSQL text) is no part of a file's name worth keeping.
      // eslint-disable-next-line no-control-regex
      file_name: values.fileName.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200),
      upload: values.upload,
      choices: values.choices,
      created_by: values.createdBy,
      progress: { phase: "queued", done: 0, total: 0, message: "Waiting to start…", at: new Date().toISOString() },
    })
    .returning({ id: wordpressImports.id });
  return row.id;
}

export async function getWordPressImport(id: number): Promise<WordPressImport | undefined> {
  const [row] = await db().select().from(wordpressImports).where(eq(wordpressImports.id, id));
  return row;
}

/** The latest runs, newest first, without their reports (the screen's list). */
export async function latestWordPressImports(limit = 5) {
  return db()
    .select({
      id: wordpressImports.id,
      status: wordpressImports.status,
      dry_run: wordpressImports.dry_run,
      file_name: wordpressImports.file_name,
      created_at: wordpressImports.created_at,
    })
    .from(wordpressImports)
    .orderBy(desc(wordpressImports.id))
    .limit(limit);
}

/**
 * The oldest run that may start now: queued, or `running` with no run under
 * way (the job runs one at a time on all instances, so a `running` row it
 * finds is one whose instance stopped). Counts the attempt.
 */
export async function claimNextWordPressImport(now = new Date()): Promise<WordPressImport | undefined> {
  const [next] = await db()
    .select({ id: wordpressImports.id })
    .from(wordpressImports)
    .where(and(inArray(wordpressImports.status, ["queued", "running"]), lte(wordpressImports.run_after, now)))
    .orderBy(wordpressImports.id)
    .limit(1);
  if (!next) return undefined;
  const [row] = await db()
    .update(wordpressImports)
    .set({
      status: "running",
      attempts: sql`${wordpressImports.attempts} + 1`,
      started_at: sql`coalesce(${wordpressImports.started_at}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(wordpressImports.id, next.id))
    .returning();
  return row;
}

export async function setWordPressImportProgress(id: number, progress: WordPressImportProgress) {
  await db().update(wordpressImports).set({ progress }).where(eq(wordpressImports.id, id));
}

export async function finishWordPressImport(id: number, report: Record<string, unknown>, now = new Date()) {
  await db()
    .update(wordpressImports)
    .set({
      status: "done",
      report,
      error: null,
      finished_at: now,
      progress: { phase: "done", done: 1, total: 1, message: "Done.", at: now.toISOString() },
    })
    .where(eq(wordpressImports.id, id));
}

export async function failWordPressImport(id: number, error: string, now = new Date()) {
  await db()
    .update(wordpressImports)
    .set({ status: "failed", error: error.slice(0, 1000), finished_at: now })
    .where(eq(wordpressImports.id, id));
}

/** A run that stopped on an error worth another try: queued again after `delayMs`, with the error kept for the screen. */
export async function retryWordPressImportLater(id: number, error: string, delayMs: number, now = new Date()) {
  await db()
    .update(wordpressImports)
    .set({ status: "queued", error: error.slice(0, 1000), run_after: new Date(now.getTime() + delayMs) })
    .where(eq(wordpressImports.id, id));
}

/** Marks a stored export removed on every run that used it. */
export async function forgetUpload(upload: string) {
  await db().update(wordpressImports).set({ upload: null }).where(eq(wordpressImports.upload, upload));
}

/** Every stored export some run still names, and whether a run of it is waiting or under way. */
export async function uploadsInUse(): Promise<Map<string, { active: boolean; lastFinished: Date | null }>> {
  const rows = await db()
    .select({
      upload: wordpressImports.upload,
      active: sql<boolean>`bool_or(${wordpressImports.status} in ('queued', 'running'))`,
      lastFinished: sql<string | null>`max(${wordpressImports.finished_at})`,
    })
    .from(wordpressImports)
    .where(isNotNull(wordpressImports.upload))
    .groupBy(wordpressImports.upload);
  return new Map(rows.map((r) => [r.upload!, { active: !!r.active, lastFinished: r.lastFinished ? new Date(r.lastFinished) : null }]));
}

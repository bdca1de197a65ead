/**
 * Queries for the dashboard's WordPress dry runs and imports (table
 * `wordpress_imports`; the work is app/.server/wordpress/task.ts, run by the
 * `wordpress-import` job): the row is queued by the screen with its job (one
 * pg-boss job a row), claimed by that job on whichever instance runs it, its
 * progress written as it goes and read by the screen from any instance, and
 * its report kept. Tries and their delays are pg-boss's, not the row's.
 */
import { and, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { db, type Db } from "./client";
import { wordpressImports } from "./schema";

export type WordPressImport = typeof wordpressImports.$inferSelect;
export type WordPressImportProgress = { phase: string; done: number; total: number; message: string; at?: string };

/** Queues a run, in `tx` (the caller writes its job in the same transaction); returns its id. */
export async function queueWordPressImport(
  tx: Db,
  values: {
    dryRun: boolean;
    fileName: string;
    upload: string;
    choices: Record<string, unknown>;
    createdBy: string;
  },
): Promise<number> {
  const [row] = await tx
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
 * Run `id` taken by its job: `queued`, or `running` (its job's earlier try
 * stopped with its instance: the job runs one try at a time on all
 * instances), or `failed` with an error ending in `againAfter` (it gave up
 * after its last try, and an owner sent its job again from Failed jobs).
 * Undefined when it is done, failed for good, or gone.
 */
export async function claimWordPressImport(id: number, againAfter: string, now = new Date()): Promise<WordPressImport | undefined> {
  const [row] = await db()
    .update(wordpressImports)
    .set({
      status: "running",
      finished_at: null,
      started_at: sql`coalesce(${wordpressImports.started_at}, ${now.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        eq(wordpressImports.id, id),
        or(
          inArray(wordpressImports.status, ["queued", "running"]),
          and(eq(wordpressImports.status, "failed"), sql`right(${wordpressImports.error}, ${againAfter.length}) = ${againAfter}`),
        ),
      ),
    )
    .returning();
  return row;
}

/** The runs waiting or under way, oldest first (the sweep gives a job to any without one). */
export async function activeWordPressImports(): Promise<number[]> {
  const rows = await db()
    .select({ id: wordpressImports.id })
    .from(wordpressImports)
    .where(inArray(wordpressImports.status, ["queued", "running"]))
    .orderBy(wordpressImports.id);
  return rows.map((r) => r.id);
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

/** A try that stopped on an error worth another: waiting for its job's next try (pg-boss's delay), with the error kept for the screen. */
export async function waitForNextTry(id: number, error: string) {
  await db()
    .update(wordpressImports)
    .set({ status: "queued", error: error.slice(0, 1000) })
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

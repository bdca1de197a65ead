/** The scheduled-publishing job's step shared by articles and events. */
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { recordScheduledPublish, type Actor } from "./audit";
import { db, type Db } from "./client";
import { contentChanged } from "./content-events";
import { recordRevision } from "./revisions";
import { articles, events, type ArticleRow, type EventRow } from "./schema";

const SCHEDULED = {
  article: { table: articles, content: "articles" },
  event: { table: events, content: "events" },
} as const;

type Published = { article: ArticleRow; event: EventRow };

/**
 * Scheduled articles or events whose time has come go live (safe to repeat: a
 * conditional update, so two processes never publish one twice; one in the Trash
 * stays scheduled until it is restored). Each is recorded in the audit trail with
 * the job as actor, and its new version has its revision (`revisionOf` the row),
 * so History and an editor's conflict message name "scheduled publishing".
 */
export async function publishDue<K extends keyof Published>(
  kind: K,
  actor: Actor,
  now: Date,
  revisionOf: (tx: Db, row: Published[K]) => Promise<Record<string, unknown> & { id: number; version: number }>,
): Promise<Published[K][]> {
  const { table, content } = SCHEDULED[kind];
  const published = await db().transaction(async (tx) => {
    const rows = (await tx
      .update(table)
      .set({ status: "published", updated_at: now, version: sql`${table.version} + 1` })
      .where(and(eq(table.status, "scheduled"), lte(table.published_at, now), isNull(table.deleted_at)))
      .returning()) as Published[K][];
    for (const row of rows) {
      await recordScheduledPublish(tx, actor, kind, row);
      await recordRevision(tx, kind, await revisionOf(tx, row), actor, now);
    }
    return rows;
  });
  if (published.length) contentChanged(content);
  return published;
}

/**
 * Revisions: every save of an article, team member or event keeps a copy of all its
 * fields (who, when, the version it made), in the save's own transaction.
 * The last REVISIONS_KEPT per item are kept. The History screen lists them,
 * shows what changed in the text fields and restores one (a new save, so a
 * new revision: nothing is rewritten).
 */
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Actor } from "./audit";
import { db, type Db } from "./client";
import { revisions, type RevisionRow } from "./schema";

export const REVISIONS_KEPT = 50;
export type RevisionKind = "article" | "team" | "event";

/** Fields kept: everything but the bookkeeping columns. */
const SKIP = new Set(["id", "created_at", "updated_at", "deleted_at", "version"]);

export async function recordRevision(
  tx: Db,
  kind: RevisionKind,
  row: Record<string, unknown> & { id: number; version: number },
  actor: Actor,
  at = new Date(),
) {
  const fields = Object.fromEntries(Object.entries(row).filter(([k]) => !SKIP.has(k)));
  await tx
    .insert(revisions)
    .values({ item_type: kind, item_id: row.id, version: row.version, at, actor_id: actor.userId, actor_label: actor.label, fields });
  // Keep the newest REVISIONS_KEPT.
  const [cut] = await tx
    .select({ id: revisions.id })
    .from(revisions)
    .where(and(eq(revisions.item_type, kind), eq(revisions.item_id, row.id)))
    .orderBy(desc(revisions.id))
    .offset(REVISIONS_KEPT)
    .limit(1);
  if (cut)
    await tx.delete(revisions).where(and(eq(revisions.item_type, kind), eq(revisions.item_id, row.id), sql`${revisions.id} <= ${cut.id}`));
}

export async function listRevisions(kind: RevisionKind, itemId: number): Promise<RevisionRow[]> {
  return db()
    .select()
    .from(revisions)
    .where(and(eq(revisions.item_type, kind), eq(revisions.item_id, itemId)))
    .orderBy(desc(revisions.id));
}

export async function getRevision(kind: RevisionKind, itemId: number, revisionId: number): Promise<RevisionRow | undefined> {
  const [row] = await db()
    .select()
    .from(revisions)
    .where(and(eq(revisions.item_type, kind), eq(revisions.item_id, itemId), eq(revisions.id, revisionId)))
    .limit(1);
  return row;
}

/** The revision saved just before this one (for "what changed"). */
export async function previousRevision(kind: RevisionKind, itemId: number, revisionId: number): Promise<RevisionRow | undefined> {
  const [row] = await db()
    .select()
    .from(revisions)
    .where(and(eq(revisions.item_type, kind), eq(revisions.item_id, itemId), lt(revisions.id, revisionId)))
    .orderBy(desc(revisions.id))
    .limit(1);
  return row;
}

/** Who made a version (for the conflict message): the revision of that version, if kept. */
export async function revisionOfVersion(tx: Db, kind: RevisionKind, itemId: number, version: number) {
  const [row] = await tx
    .select({ actor_label: revisions.actor_label, at: revisions.at })
    .from(revisions)
    .where(and(eq(revisions.item_type, kind), eq(revisions.item_id, itemId), eq(revisions.version, version)))
    .orderBy(desc(revisions.id))
    .limit(1);
  return row;
}

/**
 * A save made on an older version than the stored one (two people editing):
 * nothing is written; the form shows who saved in between and when.
 */
export class EditConflict extends Error {
  constructor(
    readonly currentVersion: number,
    readonly savedBy: string | null,
    readonly savedAt: Date | null,
  ) {
    super("edited by someone else in the meantime");
  }
}

export async function checkVersion(tx: Db, kind: RevisionKind, itemId: number, current: number, expected: number | undefined) {
  if (expected === undefined || expected === current) return;
  const who = await revisionOfVersion(tx, kind, itemId, current);
  throw new EditConflict(current, who?.actor_label ?? null, who?.at ?? null);
}

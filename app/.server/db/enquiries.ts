/**
 * Queries for enquiries sent through the public form, and for the form's
 * per-address limit. Staff changes (state, note, delete) are recorded in the
 * audit trail in the same transaction, without the sender's personal details
 * (the trail outlives the enquiry: it names "Enquiry #12", never the person,
 * and a note is marked changed without its text). Enquiries are not public
 * content: writing one does not clear the page cache.
 */
import { count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { EnquiryInput, EnquiryState, EnquiryUpdate } from "~/lib/forms/enquiry";
import { recordAudit, type Actor } from "./audit";
import { pruneAttempts } from "./attempts";
import { db } from "./client";
import { rowsOf } from "./rows";
import { enquiries, enquiryAttempts, type EnquiryRow } from "./schema";

export type Enquiry = EnquiryRow;

/** The per-address limit of the form: this many sendings an hour. */
export const ENQUIRY_LIMIT_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;
/** Attempts are kept this long (the limit looks back an hour). */
export const ATTEMPT_KEEP_MS = 24 * HOUR_MS;

export const ENQUIRIES_PAGE_SIZE = 20;

export function enquiryLabel(id: number): string {
  return `Enquiry #${id}`;
}

/** A checked enquiry (the form's schema ran first: the consent box was ticked, so consent is recorded now). */
export type NewEnquiry = Pick<EnquiryInput, "name" | "email" | "phone" | "message"> & { practice_area: string };

export async function createEnquiry(input: NewEnquiry, now = new Date()): Promise<Enquiry> {
  const [row] = await db()
    .insert(enquiries)
    .values({
      name: input.name,
      email: input.email,
      phone: input.phone,
      practice_area: input.practice_area,
      message: input.message,
      consented_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning();
  return row;
}

/**
 * Records one sending from `address` (a keyed hash of the IP address) and
 * answers whether it is within the limit, counting this one.
 */
export async function recordAttempt(address: string, now = new Date()): Promise<{ allowed: boolean; count: number }> {
  // One statement, one round trip (every public form's post pays it): the count runs on the statement's snapshot,
  // which does not hold the row its own insert adds, so that row is added to it.
  const since = new Date(now.getTime() - HOUR_MS);
  const [row] = rowsOf<{ n: number | string }>(
    await db().execute(sql`with added as (
        insert into ${enquiryAttempts} (address, at) values (${address}, ${now.toISOString()}::timestamptz) returning 1)
      select (select count(*) from ${enquiryAttempts} where address = ${address} and at >= ${since.toISOString()}::timestamptz)
        + (select count(*) from added) as n`),
  );
  const n = Number(row?.n ?? 0);
  return { allowed: n <= ENQUIRY_LIMIT_PER_HOUR, count: n };
}

export async function listEnquiries(options: { state?: EnquiryState; page?: number } = {}) {
  const where = options.state ? eq(enquiries.state, options.state) : undefined;
  const [total] = await db().select({ n: count() }).from(enquiries).where(where);
  const page = Math.max(1, options.page ?? 1);
  const rows = await db()
    .select({
      id: enquiries.id,
      created_at: enquiries.created_at,
      name: enquiries.name,
      email: enquiries.email,
      practice_area: enquiries.practice_area,
      state: enquiries.state,
      handled_by: enquiries.handled_by,
    })
    .from(enquiries)
    .where(where)
    .orderBy(desc(enquiries.created_at), desc(enquiries.id))
    .limit(ENQUIRIES_PAGE_SIZE)
    .offset((page - 1) * ENQUIRIES_PAGE_SIZE);
  return { total: Number(total?.n ?? 0), rows };
}

/** Every enquiry in a state (or all), newest first, whole, for the CSV export. */
export async function enquiriesForExport(state?: EnquiryState) {
  return db()
    .select()
    .from(enquiries)
    .where(state ? eq(enquiries.state, state) : undefined)
    .orderBy(desc(enquiries.created_at), desc(enquiries.id));
}

/** How many enquiries are in each state (for the list's filter). */
export async function countEnquiriesByState(): Promise<Record<string, number>> {
  const rows = await db().select({ state: enquiries.state, n: count() }).from(enquiries).groupBy(enquiries.state);
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

export async function getEnquiry(id: number): Promise<Enquiry | undefined> {
  const [row] = await db().select().from(enquiries).where(eq(enquiries.id, id)).limit(1);
  return row;
}

/** Changes the state and the note; records who handled it. Undefined when it no longer exists. */
export async function updateEnquiry(id: number, update: EnquiryUpdate, actor: Actor, now = new Date()): Promise<Enquiry | undefined> {
  return db().transaction(async (tx) => {
    const [before] = await tx.select().from(enquiries).where(eq(enquiries.id, id)).for("update");
    if (!before) return undefined;
    const [after] = await tx
      .update(enquiries)
      .set({
        state: update.state,
        staff_note: update.staff_note,
        updated_at: now,
        handled_by_id: actor.userId,
        handled_by: actor.label,
        handled_at: now,
      })
      .where(eq(enquiries.id, id))
      .returning();
    const changes: Record<string, { before?: unknown; after?: unknown; hidden?: true }> = {};
    if (before.state !== after.state) changes.state = { before: before.state, after: after.state };
    // The note may hold personal details: the trail (kept longer than the enquiry) says only that it changed.
    if (before.staff_note !== after.staff_note) changes.staff_note = { hidden: true };
    await recordAudit(tx, actor, { action: "update", itemType: "enquiry", itemId: id, itemLabel: enquiryLabel(id), changes });
    return after;
  });
}

/** Deletes one enquiry at once (a request under PIPEDA, or spam). Undefined when it no longer exists. */
export async function deleteEnquiry(id: number, actor: Actor): Promise<Enquiry | undefined> {
  return db().transaction(async (tx) => {
    const [row] = await tx.delete(enquiries).where(eq(enquiries.id, id)).returning();
    if (!row) return undefined;
    await recordAudit(tx, actor, { action: "delete", itemType: "enquiry", itemId: id, itemLabel: enquiryLabel(id) });
    return row;
  });
}

/**
 * The retention sweep: enquiries older than `retentionDays` are deleted, each
 * recorded as a purge by `actor` (the retention job's systemActor("retention")), and
 * form attempts older than a day are removed. Returns how many enquiries went.
 */
export async function purgeExpiredEnquiries(retentionDays: number, actor: Actor, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * HOUR_MS);
  await pruneAttempts(enquiryAttempts, new Date(now.getTime() - ATTEMPT_KEEP_MS));
  let removed = 0;
  // In batches, each batch and its audit entries in one transaction.
  for (;;) {
    const batch = await db().transaction(async (tx) => {
      const ids = (
        await tx
          .select({ id: enquiries.id })
          .from(enquiries)
          .where(lt(enquiries.created_at, cutoff))
          .orderBy(enquiries.id)
          .limit(500)
          .for("update", { skipLocked: true })
      ).map((r) => r.id);
      if (!ids.length) return 0;
      const gone = await tx
        .delete(enquiries)
        .where(inArray(enquiries.id, ids))
        .returning({ id: enquiries.id, created_at: enquiries.created_at });
      for (const row of gone) {
        await recordAudit(tx, actor, {
          action: "purge",
          itemType: "enquiry",
          itemId: row.id,
          itemLabel: enquiryLabel(row.id),
          changes: { reason: { after: `older than ${retentionDays} days (received ${row.created_at.toISOString().slice(0, 10)})` } },
        });
      }
      return gone.length;
    });
    removed += batch;
    if (batch < 500) break;
  }
  return removed;
}

/** Test and monitoring helper: how many attempts are kept. */
export async function countAttempts(): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(enquiryAttempts);
  return Number(row?.n ?? 0);
}

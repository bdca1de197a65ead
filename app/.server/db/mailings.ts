/**
 * Mailings: an article sent to the confirmed subscribers of its topics
 * (issue 31, decision 0024). One mailing per article at most (unique
 * article_id), so an article is never sent twice. A mailing waits
 * (`scheduled`) until its article is public, then is `queued`: one
 * `mailing_deliveries` row per recipient (unique (mailing, subscriber)),
 * written with its own pg-boss job (`mailing-delivery`, decision 0026) that
 * counts its tries; the send itself is in subscriptions/mailing-sender.ts.
 */
import { and, count, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { MailingProgress } from "~/lib/mailings";
import { recordAudit, type Actor } from "./audit";
import { db, type Db } from "./client";
import { rowsOf } from "./rows";
import { articles, mailingDeliveries, mailings, subscribers } from "./schema";
import { articleIsPublic } from "./visibility";

export type Mailing = typeof mailings.$inferSelect;
export type Delivery = typeof mailingDeliveries.$inferSelect;

export async function getMailingForArticle(articleId: number): Promise<Mailing | undefined> {
  const [row] = await db().select().from(mailings).where(eq(mailings.article_id, articleId));
  return row;
}

/**
 * "Send to subscribers": records the mailing (it goes out when the article is
 * public). Returns false when the article already has one that is under way
 * or done (never twice); a mailing still waiting may change its topics.
 */
export async function scheduleMailing(articleId: number, topics: readonly string[], actor: Actor, label: string): Promise<boolean> {
  return db().transaction(async (tx) => {
    const inserted = await tx
      .insert(mailings)
      .values({ article_id: articleId, topics: [...topics], created_by: actor.label })
      .onConflictDoNothing()
      .returning({ id: mailings.id });
    if (!inserted.length) {
      const updated = await tx
        .update(mailings)
        .set({ topics: [...topics] })
        .where(and(eq(mailings.article_id, articleId), eq(mailings.status, "scheduled")))
        .returning({ id: mailings.id });
      if (!updated.length) return false;
    }
    await recordAudit(tx, actor, {
      action: "mail",
      itemType: "article",
      itemId: articleId,
      itemLabel: label,
      changes: { "send to subscribers": { after: topics.join(", ") } },
    });
    return true;
  });
}

/**
 * Who may be mailed at `now`: confirmed, on express consent or on implied
 * consent that has not ended (issue 42: an imported implied consent is never
 * mailed after its end). Every place that picks recipients uses it.
 */
export function mailable(now: Date) {
  return and(eq(subscribers.status, "confirmed"), or(isNull(subscribers.consent_expires_at), gt(subscribers.consent_expires_at, now)));
}

/** Whether one subscriber may be mailed at `now` (the sender's check just before each message; same rule as `mailable`). */
export function isMailable(s: { status: string; consent_expires_at: Date | null }, now = new Date()): boolean {
  return s.status === "confirmed" && (!s.consent_expires_at || s.consent_expires_at.getTime() > now.getTime());
}

/** How many subscribers receive a mailing to `topics` now (each once, whatever the number of their topics chosen). */
export async function mailingRecipientCount(topics: readonly string[], now = new Date()): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(subscribers)
    .where(and(mailable(now), sql`${subscribers.topics} && ${sql.param([...topics])}::text[]`));
  return Number(row?.n ?? 0);
}

/**
 * Waiting mailings whose article is now public become per-recipient
 * deliveries (idempotent). `withJobs` writes each delivery's job in the same
 * transaction (the `mailing-delivery` jobs, subscriptions/mailing-sender.ts):
 * the rows and their jobs are committed together or not at all.
 */
export async function queueDueMailings(withJobs: (tx: Db, deliveryIds: number[]) => Promise<void>, now = new Date()): Promise<number> {
  const due = await db()
    .select({ id: mailings.id })
    .from(mailings)
    .innerJoin(articles, eq(articles.id, mailings.article_id))
    .where(and(eq(mailings.status, "scheduled"), articleIsPublic()));
  let queued = 0;
  for (const { id } of due) {
    await db().transaction(async (tx) => {
      const [claimed] = await tx
        .update(mailings)
        .set({ status: "queued", queued_at: now })
        .where(and(eq(mailings.id, id), eq(mailings.status, "scheduled")))
        .returning();
      if (!claimed) return;
      const rows = await tx.execute(sql`
        insert into ${mailingDeliveries} (mailing_id, subscriber_id)
        select ${id}, s.id from ${subscribers} s
        where s.status = 'confirmed' and s.topics && ${sql.param(claimed.topics)}::text[]
          and (s.consent_expires_at is null or s.consent_expires_at > ${now.toISOString()}::timestamptz)
        order by s.id
        on conflict do nothing
        returning id`);
      await withJobs(
        tx,
        rowsOf<{ id: number | string }>(rows).map((r) => Number(r.id)),
      );
      queued++;
    });
  }
  return queued;
}

/** The deliveries still to send (`queued`, or `sending` by a sender that may be gone) of mailings under way: given a job when they may have none. */
export async function unfinishedDeliveryIds(limit: number, afterId = 0): Promise<number[]> {
  const rows = await db()
    .select({ id: mailingDeliveries.id })
    .from(mailingDeliveries)
    .where(and(inArray(mailingDeliveries.status, ["queued", "sending"]), gt(mailingDeliveries.id, afterId)))
    .orderBy(mailingDeliveries.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** A batch's deliveries, by id (the sender reads them once a batch). */
export async function getDeliveries(ids: readonly number[]): Promise<Map<number, Delivery>> {
  if (!ids.length) return new Map();
  const rows = await db()
    .select()
    .from(mailingDeliveries)
    .where(inArray(mailingDeliveries.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Takes a batch's deliveries for their SMTP exchanges, in one statement,
 * just before them: `queued` (or `failed`, sent again by Try again on Failed
 * jobs; or `sending` since before `takenBefore`: its sender is gone) becomes
 * `sending`, taken at `now`. Returns the ids taken; one not there to take is
 * sent, finished, or being sent by another sender right now. The row is the
 * guard against a second send, whatever pg-boss does with its job.
 */
export async function takeDeliveries(ids: readonly number[], takenBefore: Date, now = new Date()): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const taken = await db()
    .update(mailingDeliveries)
    .set({ status: "sending", claimed_at: now })
    .where(
      and(
        inArray(mailingDeliveries.id, [...ids]),
        or(
          inArray(mailingDeliveries.status, ["queued", "failed"]),
          and(eq(mailingDeliveries.status, "sending"), lt(mailingDeliveries.claimed_at, takenBefore)),
        ),
      ),
    )
    .returning({ id: mailingDeliveries.id });
  return new Set(taken.map((r) => r.id));
}

/**
 * A delivery taken at `takenAt` and not sent goes back to `queued` for its job's next try, or is `failed` with
 * `lastTry.error` when there is none (Try again on Failed jobs sends it), if it is still that take's (nobody took it since).
 */
export async function releaseDelivery(id: number, takenAt: Date, lastTry?: { error: string }): Promise<void> {
  await db()
    .update(mailingDeliveries)
    .set(lastTry ? { status: "failed", claimed_at: null, last_error: lastTry.error } : { status: "queued", claimed_at: null })
    .where(and(eq(mailingDeliveries.id, id), eq(mailingDeliveries.status, "sending"), eq(mailingDeliveries.claimed_at, takenAt)));
}

/**
 * A delivery's other outcomes, written at once: skipped, bounced, failed
 * (its last try), or `queued` again with the error for its job's next try.
 * Only a row still to send changes (never one already `sent`).
 */
export async function finishDelivery(
  id: number,
  outcome: { status: "skipped" | "bounced" | "failed" | "queued"; error?: string },
): Promise<void> {
  await db()
    .update(mailingDeliveries)
    .set({ status: outcome.status, sent_at: null, claimed_at: null, last_error: outcome.error?.slice(0, 300) ?? null })
    .where(and(eq(mailingDeliveries.id, id), inArray(mailingDeliveries.status, ["queued", "sending"])));
}

/** Deliveries the SMTP server accepted, written at once (one statement for a group of them). */
export async function markDeliveriesSent(ids: readonly number[], now = new Date()): Promise<void> {
  if (!ids.length) return;
  await db()
    .update(mailingDeliveries)
    .set({ status: "sent", sent_at: now, last_error: null })
    .where(inArray(mailingDeliveries.id, [...ids]));
}

/** One delivery in words, for owners (Failed jobs): the article, the address and the mailing; null when the row is gone. */
export async function describeDelivery(id: number): Promise<string | null> {
  const [row] = await db()
    .select({ mailing: mailings.id, title: articles.title, email: subscribers.email })
    .from(mailingDeliveries)
    .innerJoin(mailings, eq(mailings.id, mailingDeliveries.mailing_id))
    .leftJoin(articles, eq(articles.id, mailings.article_id))
    .leftJoin(subscribers, eq(subscribers.id, mailingDeliveries.subscriber_id))
    .where(eq(mailingDeliveries.id, id));
  if (!row) return null;
  return `“${row.title ?? "an article since deleted"}” to ${row.email ?? "a subscriber since erased"} (mailing ${row.mailing}, delivery ${id})`;
}

/** Queued mailings with nothing left to send become done. */
export async function closeFinishedMailings(now = new Date()): Promise<void> {
  await db().execute(sql`
    update ${mailings} m set status = 'done', finished_at = ${now.toISOString()}::timestamptz
    where m.status = 'queued'
      and not exists (select 1 from ${mailingDeliveries} d where d.mailing_id = m.id and d.status in ('queued', 'sending'))`);
}

/** What the edit screen shows: queued; sent n of N; failed m. */
export async function mailingProgress(articleId: number): Promise<MailingProgress | null> {
  const mailing = await getMailingForArticle(articleId);
  if (!mailing) return null;
  const rows = await db()
    .select({ status: mailingDeliveries.status, n: count() })
    .from(mailingDeliveries)
    .where(eq(mailingDeliveries.mailing_id, mailing.id))
    .groupBy(mailingDeliveries.status);
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const total = rows.reduce((a, r) => a + Number(r.n), 0);
  return {
    status: mailing.status,
    topics: mailing.topics,
    total,
    sent: by.sent ?? 0,
    failed: (by.failed ?? 0) + (by.bounced ?? 0),
    skipped: by.skipped ?? 0,
    waiting: (by.queued ?? 0) + (by.sending ?? 0),
  };
}

/** Deliveries per status of one mailing (tests, the benchmark). */
export async function deliveryCounts(mailingId: number): Promise<Record<string, number>> {
  const rows = await db()
    .select({ status: mailingDeliveries.status, n: count() })
    .from(mailingDeliveries)
    .where(eq(mailingDeliveries.mailing_id, mailingId))
    .groupBy(mailingDeliveries.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

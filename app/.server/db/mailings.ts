/**
 * Mailings: an article sent to the confirmed subscribers of its topics
 * (issue 31, decision 0024). One mailing per article at most (unique
 * article_id), so an article is never sent twice. A mailing waits
 * (`scheduled`) until its article is public, then is `queued`: one
 * `mailing_deliveries` row per recipient (unique (mailing, subscriber)).
 * Any instance claims due rows with FOR UPDATE SKIP LOCKED, one small batch
 * at a time; the send itself is in subscriptions/mailing-sender.ts.
 */
import { and, count, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { MailingProgress } from "~/lib/mailings";
import { recordAudit, type Actor } from "./audit";
import { db } from "./client";
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

/** Waiting mailings whose article is now public become queues of per-recipient deliveries (idempotent). */
export async function queueDueMailings(now = new Date()): Promise<number> {
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
      await tx.execute(sql`
        insert into ${mailingDeliveries} (mailing_id, subscriber_id, next_attempt_at)
        select ${id}, s.id, ${now.toISOString()}::timestamptz from ${subscribers} s
        where s.status = 'confirmed' and s.topics && ${sql.param(claimed.topics)}::text[]
          and (s.consent_expires_at is null or s.consent_expires_at > ${now.toISOString()}::timestamptz)
        on conflict do nothing`);
      queued++;
    });
  }
  return queued;
}

/**
 * Deliveries left `sending` by a run that did not finish them (its instance
 * was killed, or the run failed) go back to the queue. Called at the start of
 * each run of the `mailing-send` job, whose queue lets one run be active at a
 * time on all instances (its `singleton` policy, jobs.ts; decision 0026): a
 * row still `sending` then belongs to no live run. A killed instance's run
 * stops beating its heartbeat and is failed within seconds, so the next run
 * on any instance resumes its work.
 */
export async function requeueOrphanedDeliveries(now = new Date()): Promise<number> {
  const rows = await db()
    .update(mailingDeliveries)
    .set({ status: "queued", next_attempt_at: now, claimed_at: null })
    .where(eq(mailingDeliveries.status, "sending"))
    .returning({ id: mailingDeliveries.id });
  return rows.length;
}

/**
 * Claims up to `limit` due deliveries for this run (`sending`). Rows another
 * run is claiming at the same moment are skipped (SKIP LOCKED), so two
 * senders never take the same row.
 */
export async function claimDeliveries(limit: number, now = new Date()): Promise<Delivery[]> {
  const result = await db().execute(sql`
    update ${mailingDeliveries} set status = 'sending', claimed_at = ${now.toISOString()}::timestamptz, attempts = attempts + 1
    where id in (
      select id from ${mailingDeliveries}
      where status = 'queued' and next_attempt_at <= ${now.toISOString()}::timestamptz
      order by id
      limit ${limit}
      for update skip locked
    )
    returning id, mailing_id, subscriber_id, attempts`);
  return rowsOf<{ id: number | string; mailing_id: number | string; subscriber_id: number | string; attempts: number }>(result).map(
    (r) => ({
      id: Number(r.id),
      mailing_id: Number(r.mailing_id),
      subscriber_id: Number(r.subscriber_id),
      attempts: Number(r.attempts),
      status: "sending",
      next_attempt_at: now,
      claimed_at: now,
      sent_at: null,
      last_error: null,
    }),
  );
}

/** A delivery's other outcomes (skipped, bounced, failed, or back in the queue for a retry), written at once. */
export async function finishDelivery(
  id: number,
  outcome: { status: "skipped" | "bounced" | "failed"; error?: string } | { status: "retry"; error: string; at: Date },
): Promise<void> {
  if (outcome.status === "retry") {
    await db()
      .update(mailingDeliveries)
      .set({ status: "queued", next_attempt_at: outcome.at, last_error: outcome.error.slice(0, 300), claimed_at: null })
      .where(eq(mailingDeliveries.id, id));
    return;
  }
  await db()
    .update(mailingDeliveries)
    .set({ status: outcome.status, sent_at: null, last_error: outcome.error?.slice(0, 300) ?? null })
    .where(eq(mailingDeliveries.id, id));
}

/** Deliveries the SMTP server accepted, written at once (one statement for a group of them). */
export async function markDeliveriesSent(ids: readonly number[], now = new Date()): Promise<void> {
  if (!ids.length) return;
  await db()
    .update(mailingDeliveries)
    .set({ status: "sent", sent_at: now, last_error: null })
    .where(inArray(mailingDeliveries.id, [...ids]));
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

/**
 * Insight subscribers and the proof of their consent (issue 31, CASL).
 *
 * - A request (web form or staff import) makes or finds the address's row
 *   and appends a `requested`/`imported` record with the exact wording, its
 *   version and the form's URL, with a confirmation token (only its SHA-256
 *   is kept; 48 hours, single use) — unless one was sent within the hour to
 *   the same mailbox, the address is already confirmed, or it is on the
 *   suppression list: then nothing is recorded or sent.
 * - Confirming sets the status `confirmed` with the topics of that request.
 * - A withdrawal (preferences page, one-click, staff) takes effect at once
 *   and is kept: the row stays `unsubscribed`, never mailed again.
 * - Erasure deletes the row and its history; a SHA-256 of the address stays
 *   on the suppression list.
 * Staff changes are recorded in the audit trail (item "subscriber", labelled
 * by id, never by address).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, ilike, inArray, lt, sql, type SQL } from "drizzle-orm";
import {
  CONSENT_VERSION,
  CONSENT_WORDING,
  mailboxKey,
  normalizeAddress,
  type SubscriberStatus,
  type SubscriptionTopic,
} from "~/lib/forms/subscribe";
import { attemptsSince } from "./attempts";
import { recordAudit, type Actor } from "./audit";
import { db } from "./client";
import { rowsOf } from "./rows";
import { enquiryAttempts, subscriberConsents, subscribers, subscriberSuppressions, subscriberTokens, type SubscriberRow } from "./schema";

export type Subscriber = SubscriberRow;

export const CONFIRMATION_LIFETIME_MS = 48 * 60 * 60 * 1000;
/** At most one confirmation e-mail per address in this time. */
export const CONFIRMATION_INTERVAL_MS = 60 * 60 * 1000;
export const SUBSCRIBERS_PAGE_SIZE = 50;

export const CONSENT_EVENTS = ["requested", "imported", "confirmed", "topics-changed", "withdrawn", "bounced"] as const;
export type ConsentEvent = (typeof CONSENT_EVENTS)[number];

export function subscriberLabel(id: number): string {
  return `Subscriber #${id}`;
}

/** The suppression list's key: SHA-256 of the normalized address (hex). */
export function addressHash(address: string): string {
  return createHash("sha256").update(normalizeAddress(address)).digest("hex");
}

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function isSuppressed(address: string): Promise<boolean> {
  const [row] = await db()
    .select({ h: subscriberSuppressions.address_hash })
    .from(subscriberSuppressions)
    .where(eq(subscriberSuppressions.address_hash, addressHash(address)));
  return !!row;
}

export type SubscriptionRequest = {
  email: string;
  topics: readonly SubscriptionTopic[];
  /** The address of the form the consent was asked on (or the import's description). */
  formUrl: string;
  source: "web" | "import";
};

/** The key under which confirmation e-mails to one mailbox are counted (`mailboxKey`, hashed: the attempts table keeps no address). */
function mailboxLimitKey(address: string): string {
  return `confirmation:${createHash("sha256").update(mailboxKey(address)).digest("hex")}`;
}

/**
 * What a sign-up request leads to: a confirmation link to e-mail (`token`),
 * a "manage your subscription" e-mail to a confirmed subscriber
 * (`subscribed`), or nothing (suppressed, or asked within the hour).
 */
export type SubscriptionRequested = { subscriberId: number | null; token: string | null; subscribed?: Subscriber };

/**
 * Records a request for consent. Returns the confirmation token to e-mail;
 * for a confirmed subscriber, the subscriber (to e-mail their preferences
 * link); or neither when nothing is to be sent (suppressed, or an e-mail
 * went out within the hour to the same mailbox: `mailboxKey`, so `a+1@`,
 * `a+2@` and, at Gmail, `a.b@` count as one). The caller answers the same
 * either way. The consent record of the request ("requested" or
 * "imported") is kept only with a confirmation e-mail: one record per e-mail
 * sent, never one per request (issue 42).
 */

export async function requestSubscription(input: SubscriptionRequest, now = new Date()): Promise<SubscriptionRequested> {
  const email = normalizeAddress(input.email);
  if (await isSuppressed(email)) return { subscriberId: null, token: null };
  const mailbox = mailboxLimitKey(email);
  return db().transaction(async (tx) => {
    // One mailbox at a time: requests for its variants wait for each other, so two at once send one e-mail at most.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${mailbox}))`);
    const [known] = await tx.select().from(subscribers).where(eq(subscribers.email, email)).for("update");
    const since = new Date(now.getTime() - CONFIRMATION_INTERVAL_MS);
    const recent =
      (known?.confirmation_sent_at && known.confirmation_sent_at.getTime() > since.getTime()) ||
      (await attemptsSince(enquiryAttempts, eq(enquiryAttempts.address, mailbox), since, tx)) > 0;
    if (recent) return { subscriberId: known?.id ?? null, token: null };
    // Implied consent (an import) is asked for express consent like a new address; express consent gets the preferences link.
    if (known?.status === "confirmed" && known.consent_kind !== "implied") {
      // Subscribed already: one e-mail with their preferences link, under the same hourly limit; topics unchanged.
      await tx.insert(enquiryAttempts).values({ address: mailbox, at: now });
      await tx.update(subscribers).set({ confirmation_sent_at: now }).where(eq(subscribers.id, known.id));
      return { subscriberId: known.id, token: null, subscribed: known };
    }
    await tx
      .insert(subscribers)
      .values({ email, status: "pending", topics: [...input.topics], source: input.source, created_at: now, updated_at: now })
      .onConflictDoNothing();
    // Locks the row: two requests at once send one confirmation at most.
    const [row] = await tx.select().from(subscribers).where(eq(subscribers.email, email)).for("update");
    await tx.insert(enquiryAttempts).values({ address: mailbox, at: now });
    await tx.insert(subscriberConsents).values({
      subscriber_id: row.id,
      event: input.source === "import" ? "imported" : "requested",
      topics: [...input.topics],
      wording: input.source === "import" ? "" : CONSENT_WORDING,
      wording_version: input.source === "import" ? "" : CONSENT_VERSION,
      form_url: input.formUrl,
      source: input.source,
      at: now,
    });
    const token = randomBytes(32).toString("base64url");
    await tx.insert(subscriberTokens).values({
      token_hash: tokenHash(token),
      subscriber_id: row.id,
      topics: [...input.topics],
      created_at: now,
      expires_at: new Date(now.getTime() + CONFIRMATION_LIFETIME_MS),
    });
    await tx.update(subscribers).set({ confirmation_sent_at: now, updated_at: now }).where(eq(subscribers.id, row.id));
    return { subscriberId: row.id, token };
  });
}

export type ConfirmOutcome = { outcome: "confirmed"; subscriberId: number } | { outcome: "expired" | "used" | "invalid" };

/** What a confirmation link would do now, without using it (the page shown before the person presses Confirm). */
export async function peekConfirmation(token: string, now = new Date()): Promise<"ready" | "expired" | "used" | "invalid"> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return "invalid";
  const [row] = await db()
    .select()
    .from(subscriberTokens)
    .where(eq(subscriberTokens.token_hash, tokenHash(token)));
  if (!row) return "invalid";
  if (row.used_at) return "used";
  return row.expires_at.getTime() <= now.getTime() ? "expired" : "ready";
}

/** Uses a confirmation link: once, within 48 hours. */
export async function confirmSubscription(token: string, now = new Date()): Promise<ConfirmOutcome> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { outcome: "invalid" };
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(subscriberTokens)
      .where(eq(subscriberTokens.token_hash, tokenHash(token)))
      .for("update");
    if (!row) return { outcome: "invalid" as const };
    if (row.used_at) return { outcome: "used" as const };
    if (row.expires_at.getTime() <= now.getTime()) return { outcome: "expired" as const };
    await tx.update(subscriberTokens).set({ used_at: now }).where(eq(subscriberTokens.token_hash, row.token_hash));
    await tx
      .update(subscribers)
      .set({
        status: "confirmed",
        topics: row.topics,
        confirmed_at: now,
        withdrawn_at: null,
        updated_at: now,
        // The person's own yes: express consent, with no end (an imported implied consent becomes express).
        consent_kind: "express",
        consent_expires_at: null,
        consent_request_queued_at: null,
      })
      .where(eq(subscribers.id, row.subscriber_id));
    await tx.insert(subscriberConsents).values({ subscriber_id: row.subscriber_id, event: "confirmed", topics: row.topics, at: now });
    return { outcome: "confirmed" as const, subscriberId: row.subscriber_id };
  });
}

export async function getSubscriber(id: number): Promise<Subscriber | undefined> {
  const [row] = await db().select().from(subscribers).where(eq(subscribers.id, id));
  return row;
}

/** Several subscribers at once, by id (a mailing's batch). */
export async function getSubscribers(ids: readonly number[]): Promise<Map<number, Subscriber>> {
  if (!ids.length) return new Map();
  const rows = await db()
    .select()
    .from(subscribers)
    .where(inArray(subscribers.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function findSubscriberByEmail(email: string): Promise<Subscriber | undefined> {
  const [row] = await db()
    .select()
    .from(subscribers)
    .where(eq(subscribers.email, normalizeAddress(email)));
  return row;
}

/** Changes a confirmed subscriber's topics (the preferences page). */
export async function changeTopics(id: number, topics: readonly SubscriptionTopic[], now = new Date()): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(subscribers)
      .set({ topics: [...topics], updated_at: now })
      .where(and(eq(subscribers.id, id), eq(subscribers.status, "confirmed")))
      .returning({ id: subscribers.id });
    if (!row) return false;
    await tx.insert(subscriberConsents).values({ subscriber_id: id, event: "topics-changed", topics: [...topics], at: now });
    return true;
  });
}

/** A withdrawal, effective at once: never mailed again until the person subscribes and confirms anew. */
export async function withdrawConsent(
  id: number,
  how: "preferences" | "one-click" | "staff",
  now = new Date(),
  actor?: Actor,
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(subscribers)
      .set({ status: "unsubscribed", withdrawn_at: now, updated_at: now })
      .where(and(eq(subscribers.id, id), inArray(subscribers.status, ["pending", "confirmed", "bounced"])))
      .returning({ id: subscribers.id, topics: subscribers.topics });
    if (!row) return false;
    // Pending confirmation links stop working too.
    await tx
      .update(subscriberTokens)
      .set({ used_at: now })
      .where(and(eq(subscriberTokens.subscriber_id, id), sql`${subscriberTokens.used_at} is null`));
    await tx.insert(subscriberConsents).values({ subscriber_id: id, event: "withdrawn", topics: [], source: how, at: now });
    if (actor) {
      await recordAudit(tx, actor, {
        action: "update",
        itemType: "subscriber",
        itemId: id,
        itemLabel: subscriberLabel(id),
        changes: { status: { before: "subscribed", after: "unsubscribed" } },
      });
    }
    return true;
  });
}

/** A permanent delivery failure: no more mail to this address. */
export async function markBounced(id: number, reason: string, now = new Date()): Promise<void> {
  await db().transaction(async (tx) => {
    const [row] = await tx
      .update(subscribers)
      .set({ status: "bounced", updated_at: now })
      .where(and(eq(subscribers.id, id), eq(subscribers.status, "confirmed")))
      .returning({ id: subscribers.id });
    if (row) await tx.insert(subscriberConsents).values({ subscriber_id: id, event: "bounced", form_url: reason.slice(0, 300), at: now });
  });
}

// ---- the dashboard ----

export type SubscriberFilter = { q?: string; topic?: string; status?: string; page?: number };

function filterWhere(filter: SubscriberFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (filter.q) parts.push(ilike(subscribers.email, `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (filter.topic) parts.push(sql`${filter.topic} = any(${subscribers.topics})`);
  if (filter.status) parts.push(eq(subscribers.status, filter.status));
  return parts.length ? and(...parts) : undefined;
}

export async function listSubscribers(filter: SubscriberFilter) {
  const where = filterWhere(filter);
  const [total] = await db().select({ n: count() }).from(subscribers).where(where);
  const page = Math.max(1, filter.page ?? 1);
  const rows = await db()
    .select()
    .from(subscribers)
    .where(where)
    .orderBy(desc(subscribers.created_at), desc(subscribers.id))
    .limit(SUBSCRIBERS_PAGE_SIZE)
    .offset((page - 1) * SUBSCRIBERS_PAGE_SIZE);
  return { rows, total: Number(total?.n ?? 0) };
}

/** How many addresses are in each status, and confirmed ones per topic (what an editor may see). */
export async function subscriberCounts(): Promise<{ byStatus: Record<SubscriberStatus, number>; byTopic: Record<string, number> }> {
  const statusRows = await db().select({ status: subscribers.status, n: count() }).from(subscribers).groupBy(subscribers.status);
  const byStatus = { pending: 0, confirmed: 0, unsubscribed: 0, bounced: 0 } as Record<SubscriberStatus, number>;
  for (const r of statusRows) byStatus[r.status as SubscriberStatus] = Number(r.n);
  const topicRows = await db().execute<{ topic: string; n: number | string }>(
    sql`select t.topic, count(*) as n from ${subscribers}, unnest(${subscribers.topics}) as t(topic) where ${subscribers.status} = 'confirmed' group by t.topic`,
  );
  const byTopic: Record<string, number> = {};
  for (const r of rowsOf<{ topic: string; n: number | string }>(topicRows)) byTopic[r.topic] = Number(r.n);
  return { byStatus, byTopic };
}

export async function consentHistory(id: number) {
  return db()
    .select()
    .from(subscriberConsents)
    .where(eq(subscriberConsents.subscriber_id, id))
    .orderBy(subscriberConsents.at, subscriberConsents.id);
}

/** Every consent record with its address, oldest first (the CSV export). */
export async function allConsentRecords() {
  return db()
    .select({
      email: subscribers.email,
      status: subscribers.status,
      event: subscriberConsents.event,
      topics: subscriberConsents.topics,
      wording: subscriberConsents.wording,
      wording_version: subscriberConsents.wording_version,
      form_url: subscriberConsents.form_url,
      source: subscriberConsents.source,
      at: subscriberConsents.at,
      consent_kind: subscriberConsents.consent_kind,
      consent_date: subscriberConsents.consent_date,
      implied_basis: subscriberConsents.implied_basis,
      expires_at: subscriberConsents.expires_at,
    })
    .from(subscriberConsents)
    .innerJoin(subscribers, eq(subscribers.id, subscriberConsents.subscriber_id))
    .orderBy(subscriberConsents.at, subscriberConsents.id);
}

/** Erasure on request (owners): the row and its history go; only a hash stays, on the suppression list. */
export async function eraseSubscriber(id: number, actor: Actor, now = new Date()): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [row] = await tx.delete(subscribers).where(eq(subscribers.id, id)).returning({ email: subscribers.email });
    if (!row) return false;
    await tx
      .insert(subscriberSuppressions)
      .values({ address_hash: addressHash(row.email), at: now })
      .onConflictDoNothing();
    await recordAudit(tx, actor, {
      action: "delete",
      itemType: "subscriber",
      itemId: id,
      itemLabel: subscriberLabel(id),
      changes: { erased: { after: "on request; address kept only as a hash" } },
    });
    return true;
  });
}

// ---- retention (the `retention` job) ----

/** A request never confirmed is deleted this long after it was made. */
export const UNCONFIRMED_KEEP_MS = 30 * 24 * 60 * 60 * 1000;
/** After a withdrawal or bounce the consent records are kept this long (proof, CASL's three-year limitation), then erased. */
export const WITHDRAWN_KEEP_MS = 3 * 365 * 24 * 60 * 60 * 1000;

export async function sweepSubscribers(now = new Date()): Promise<{ unconfirmedRemoved: number; withdrawnErased: number }> {
  return db().transaction(async (tx) => {
    const unconfirmed = await tx
      .delete(subscribers)
      .where(
        and(
          eq(subscribers.status, "pending"),
          sql`${subscribers.confirmed_at} is null`,
          lt(subscribers.updated_at, new Date(now.getTime() - UNCONFIRMED_KEEP_MS)),
        ),
      )
      .returning({ id: subscribers.id });
    const withdrawn = await tx
      .delete(subscribers)
      .where(
        and(
          inArray(subscribers.status, ["unsubscribed", "bounced"]),
          lt(subscribers.updated_at, new Date(now.getTime() - WITHDRAWN_KEEP_MS)),
        ),
      )
      .returning({ email: subscribers.email });
    if (withdrawn.length) {
      await tx
        .insert(subscriberSuppressions)
        .values(withdrawn.map((w) => ({ address_hash: addressHash(w.email), at: now })))
        .onConflictDoNothing();
    }
    await tx.delete(subscriberTokens).where(lt(subscriberTokens.expires_at, new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000)));
    return { unconfirmedRemoved: unconfirmed.length, withdrawnErased: withdrawn.length };
  });
}

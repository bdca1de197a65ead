/** The mail outbox as owners read it (Outbox screen): newest first, paged in the database. */
import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { db } from "./client";
import { readPage } from "./rows";
import { mailOutbox } from "./schema";

export const OUTBOX_PAGE_SIZE = 50;

export async function listOutbox(page: number) {
  return readPage(mailOutbox, undefined, page, OUTBOX_PAGE_SIZE, (limit, offset) =>
    db()
      .select({
        id: mailOutbox.id,
        created_at: mailOutbox.created_at,
        kind: mailOutbox.kind,
        to: mailOutbox.to_address,
        subject: mailOutbox.subject,
        status: mailOutbox.status,
        attempts: mailOutbox.attempts,
        last_error: mailOutbox.last_error,
        next_attempt_at: mailOutbox.next_attempt_at,
        sent_at: mailOutbox.sent_at,
      })
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.created_at), desc(mailOutbox.id))
      .limit(limit)
      .offset(offset),
  );
}

export async function getOutboxMessage(id: number) {
  const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row ?? null;
}

/** The messages a public sign-up makes: counted together against the site-wide hourly cap (issue 42). */
export const SIGN_UP_MAIL_KINDS = ["subscription-confirmation", "subscription-manage"];

/** Sign-up messages made, released or tried since `since` (held ones not counted: they have not gone). */
export async function signUpMailSince(since: Date): Promise<number> {
  const [{ n }] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(
      and(
        inArray(mailOutbox.kind, SIGN_UP_MAIL_KINDS),
        ne(mailOutbox.status, "held"),
        sql`greatest(${mailOutbox.created_at}, ${mailOutbox.last_attempt_at}, ${mailOutbox.next_attempt_at}) > ${since.toISOString()}::timestamptz`,
      ),
    );
  return n;
}

/** How many messages are held by the hourly cap (the dashboard's alert to owners). */
export async function heldMailCount(): Promise<number> {
  const [{ n }] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, "held"));
  return n;
}

/** Lets up to `room` held messages go, oldest first: the Outbox job sends them. Returns how many. */
export async function releaseHeldMail(room: number, now = new Date()): Promise<number> {
  if (room <= 0) return 0;
  const oldest = db()
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, "held"))
    .orderBy(asc(mailOutbox.id))
    .limit(room);
  const released = await db()
    .update(mailOutbox)
    .set({ status: "queued", next_attempt_at: now })
    .where(and(eq(mailOutbox.status, "held"), inArray(mailOutbox.id, oldest)))
    .returning({ id: mailOutbox.id });
  return released.length;
}

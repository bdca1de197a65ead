/** The mail outbox as owners read it (Outbox screen): newest first, paged in the database. */
import { desc, eq, sql } from "drizzle-orm";
import { db } from "./client";
import { mailOutbox } from "./schema";

export const OUTBOX_PAGE_SIZE = 50;

export async function listOutbox(page: number) {
  const [{ n }] = (await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)) as [{ n: number }];
  const total = Number(n);
  const pageCount = Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pageCount);
  const rows = await db()
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
    .limit(OUTBOX_PAGE_SIZE)
    .offset((current - 1) * OUTBOX_PAGE_SIZE);
  return { rows, total, page: current, pageCount };
}

export async function getOutboxMessage(id: number) {
  const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row ?? null;
}

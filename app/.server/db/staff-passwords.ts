/** Staff passwords: set (from a link or a change), checked, and one's own changed; with the audit entry in the same transaction. */
import { and, eq } from "drizzle-orm";
import { generateId } from "better-auth";
import { recordOwnAccountEntry } from "./audit";
import { hashPassword, verifyPassword } from "../auth/password";
import { db, type Db } from "./client";
import { account } from "./schema";
import { deleteOtherSessions } from "./staff-sessions";

export async function setPassword(tx: Db, userId: string, hash: string) {
  const updated = await tx
    .update(account)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .returning({ id: account.id });
  if (!updated.length) {
    await tx.insert(account).values({ id: generateId(), userId, providerId: "credential", accountId: userId, password: hash });
  }
}

/** Whether `password` is the account's current password. */
export async function checkCurrentPassword(userId: string, password: string): Promise<boolean> {
  const [row] = await db()
    .select({ password: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
  if (!row?.password) return false;
  return verifyPassword({ hash: row.password, password });
}

/** Changes one's own password (current one checked by the caller) and ends one's other sessions. */
export async function changeOwnPassword(
  staff: { userId: string; email: string; sessionToken: string },
  password: string,
  ip: string,
): Promise<number> {
  const hash = await hashPassword(password);
  return db().transaction(async (tx) => {
    await setPassword(tx, staff.userId, hash);
    const ended = await deleteOtherSessions(tx, staff);
    await recordOwnAccountEntry(tx, staff, ip, {
      action: "password-change",
      itemType: "staff",
      changes: { password: { hidden: true }, sessions_ended: { after: ended } },
    });
    return ended;
  });
}

/** One's own staff sessions (My account): listed, the others ended, and where a new one was opened from. */
import { and, desc, eq, gt, ne } from "drizzle-orm";
import { recordOwnAccountEntry } from "./audit";
import { db, type Db } from "./client";
import { session } from "./schema";

export type OwnSession = { id: string; current: boolean; userAgent: string; ip: string; lastSeen: Date; createdAt: Date };

export async function listOwnSessions(userId: string, currentToken: string): Promise<OwnSession[]> {
  const rows = await db()
    .select({
      id: session.id,
      token: session.token,
      userAgent: session.userAgent,
      ip: session.ipAddress,
      updatedAt: session.updatedAt,
      createdAt: session.createdAt,
    })
    .from(session)
    .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())))
    .orderBy(desc(session.updatedAt));
  return rows
    .map((r) => ({
      id: r.id,
      current: r.token === currentToken,
      userAgent: r.userAgent ?? "",
      ip: r.ip ?? "",
      lastSeen: r.updatedAt,
      createdAt: r.createdAt,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends every session of the account but the current one (in `tx`); how many it ended. */
export async function deleteOtherSessions(tx: Db, staff: { userId: string; sessionToken: string }): Promise<number> {
  const ended = await tx
    .delete(session)
    .where(and(eq(session.userId, staff.userId), ne(session.token, staff.sessionToken)))
    .returning({ id: session.id });
  return ended.length;
}

/** "Sign out everywhere else": ends every session of the account but this one. */
export async function endOtherSessions(staff: { userId: string; email: string; sessionToken: string }, ip: string): Promise<number> {
  return db().transaction(async (tx) => {
    const ended = await deleteOtherSessions(tx, staff);
    if (ended)
      await recordOwnAccountEntry(tx, staff, ip, {
        action: "sign-out",
        itemType: "session",
        changes: { sessions_ended: { after: ended } },
      });
    return ended;
  });
}

/** Records where a new session was opened from (better-auth is given no address: its endpoints are not mounted). */
export async function noteSessionAddress(token: string, ip: string, tx: Db = db()): Promise<void> {
  await tx
    .update(session)
    .set({ ipAddress: ip.slice(0, 100) })
    .where(eq(session.token, token));
}

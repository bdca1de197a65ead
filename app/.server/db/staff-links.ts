/**
 * The links staff are sent by e-mail: invitations and password resets. A
 * link carries a random 256-bit token; only its SHA-256 is stored
 * (`staff_tokens`), and using a link deletes its row (single use). Each use
 * and its audit entry are written in one transaction.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, count, eq, gt, lt } from "drizzle-orm";
import { recordAudit, type AuditAction, type Changes } from "./audit";
import { hashPassword } from "../auth/password";
import { type Role } from "../auth/roles";
import { db, type Db } from "./client";
import { mailOutbox, session, staffTokens, user, type StaffStatus } from "./schema";
import { setPassword } from "./staff-passwords";

export const INVITATION_HOURS = 72;
export const RESET_HOURS = 1;
/** Reset e-mails per account and hour at most (more requests are answered the same way, and nothing is sent). */
export const RESETS_PER_HOUR = 3;

export type TokenKind = "invitation" | "reset";

/**
 * An invitation's or reset's entry in the audit trail, about the account and under its address: `userId` is the
 * account's own id once the link's holder has shown it is theirs (accepted, password set), null while who asked is not known.
 */
function recordLinkEntry(
  tx: Db,
  target: { id: string; email: string },
  userId: string | null,
  ip: string,
  action: AuditAction,
  changes: Changes,
) {
  return recordAudit(
    tx,
    { userId, label: target.email, ip },
    { action, itemType: "staff", itemId: target.id, itemLabel: target.email, changes },
  );
}

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export async function issueToken(tx: Db, kind: TokenKind, userId: string, now = new Date()): Promise<string> {
  // A newer link replaces the older ones of the same kind.
  await tx.delete(staffTokens).where(and(eq(staffTokens.user_id, userId), eq(staffTokens.kind, kind)));
  const token = newToken();
  const hours = kind === "invitation" ? INVITATION_HOURS : RESET_HOURS;
  await tx
    .insert(staffTokens)
    .values({ kind, user_id: userId, token_hash: tokenHash(token), expires_at: new Date(now.getTime() + hours * 3_600_000) });
  return token;
}

// ---------- links: invitations and password resets ----------

export type LinkCheck =
  | { state: "valid"; userId: string; email: string; name: string; role: Role }
  | { state: "expired"; userId: string; email: string }
  | { state: "invalid" };

/** What a link is: usable, expired (its account known) or not valid (used, withdrawn, replaced, forged). */
export async function checkLink(kind: TokenKind, token: string, now = new Date()): Promise<LinkCheck> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { state: "invalid" };
  const [row] = await db()
    .select({
      expiresAt: staffTokens.expires_at,
      userId: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      status: user.status,
    })
    .from(staffTokens)
    .innerJoin(user, eq(user.id, staffTokens.user_id))
    .where(and(eq(staffTokens.token_hash, tokenHash(token)), eq(staffTokens.kind, kind)));
  if (!row) return { state: "invalid" };
  const wanted: StaffStatus = kind === "invitation" ? "invited" : "active";
  if (row.status !== wanted) return { state: "invalid" };
  if (row.expiresAt <= now) return { state: "expired", userId: row.userId, email: row.email };
  return { state: "valid", userId: row.userId, email: row.email, name: row.name, role: row.role as Role };
}

/** Takes a usable link (deleting it: single use) inside the transaction; null when it is not usable. */
async function consumeLink(tx: Db, kind: TokenKind, token: string, status: StaffStatus) {
  const [row] = await tx
    .delete(staffTokens)
    .where(and(eq(staffTokens.token_hash, tokenHash(token)), eq(staffTokens.kind, kind), gt(staffTokens.expires_at, new Date())))
    .returning({ userId: staffTokens.user_id });
  if (!row) return null;
  const [target] = await tx
    .select({ id: user.id, email: user.email, status: user.status })
    .from(user)
    .where(eq(user.id, row.userId))
    .for("update");
  if (!target || target.status !== status) return null;
  return target;
}

/** Accepts an invitation: sets the name and password and activates the account. Null when the link is not usable. */
export async function acceptInvitation(
  token: string,
  input: { name: string; password: string },
  ip: string,
): Promise<{ email: string } | null> {
  const hash = await hashPassword(input.password);
  return db().transaction(async (tx) => {
    const target = await consumeLink(tx, "invitation", token, "invited");
    if (!target) return null;
    await setPassword(tx, target.id, hash);
    await tx
      .update(user)
      .set({ name: input.name, status: "active", emailVerified: true, updatedAt: new Date() })
      .where(eq(user.id, target.id));
    await recordLinkEntry(tx, target, target.id, ip, "invitation", {
      invitation: { before: "sent", after: "accepted" },
      status: { before: "invited", after: "active" },
      password: { hidden: true },
    });
    return { email: target.email };
  });
}

/** An expired invitation asks for a new one: a fresh link for the same account (the expired one is used up). */
export async function renewExpiredInvitation(token: string, ip: string): Promise<{ email: string; role: Role; token: string } | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .delete(staffTokens)
      .where(and(eq(staffTokens.token_hash, tokenHash(token)), eq(staffTokens.kind, "invitation"), lt(staffTokens.expires_at, new Date())))
      .returning({ userId: staffTokens.user_id });
    if (!row) return null;
    const [target] = await tx
      .select({ id: user.id, email: user.email, role: user.role, status: user.status })
      .from(user)
      .where(eq(user.id, row.userId))
      .for("update");
    if (!target || target.status !== "invited") return null;
    const fresh = await issueToken(tx, "invitation", target.id);
    await recordLinkEntry(tx, target, null, ip, "invitation", { invitation: { before: "expired", after: "sent again" } });
    return { email: target.email, role: target.role as Role, token: fresh };
  });
}

/**
 * A reset link for an active account with this e-mail, or null (no such
 * account, not active, or RESETS_PER_HOUR reached). The caller answers the
 * same sentence in every case. An issued link is recorded on the account
 * (who asked is not known: no account, the address it came from; no token).
 */
export async function requestPasswordReset(email: string, ip = ""): Promise<{ email: string; token: string } | null> {
  const key = email.trim().toLowerCase();
  return db().transaction(async (tx) => {
    const [target] = await tx
      .select({ id: user.id, email: user.email, status: user.status })
      .from(user)
      .where(eq(user.email, key))
      .for("update");
    if (!target || target.status !== "active") return null;
    const [recent] = await tx
      .select({ n: count() })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.kind, "password-reset"),
          eq(mailOutbox.to_address, target.email),
          gt(mailOutbox.created_at, new Date(Date.now() - 3_600_000)),
        ),
      );
    if (Number(recent?.n ?? 0) >= RESETS_PER_HOUR) return null;
    const token = await issueToken(tx, "reset", target.id);
    await recordLinkEntry(tx, target, null, ip, "password-reset", {
      reset_link: { after: `sent (Forgot password?), works for ${RESET_HOURS} hour` },
    });
    return { email: target.email, token };
  });
}

/** Sets a new password from a reset link and ends every session of the account. Null when the link is not usable. */
export async function completePasswordReset(token: string, password: string, ip: string): Promise<{ email: string } | null> {
  const hash = await hashPassword(password);
  return db().transaction(async (tx) => {
    const target = await consumeLink(tx, "reset", token, "active");
    if (!target) return null;
    await setPassword(tx, target.id, hash);
    const ended = await tx.delete(session).where(eq(session.userId, target.id)).returning({ id: session.id });
    await recordLinkEntry(tx, target, target.id, ip, "password-reset", {
      password: { hidden: true },
      sessions_ended: { after: ended.length },
    });
    return { email: target.email };
  });
}

/** Removes links past their expiry by more than a week (the retention job). */
export async function sweepStaffTokens(now = new Date()): Promise<number> {
  const removed = await db()
    .delete(staffTokens)
    .where(lt(staffTokens.expires_at, new Date(now.getTime() - 7 * 24 * 3_600_000)))
    .returning({ id: staffTokens.id });
  return removed.length;
}

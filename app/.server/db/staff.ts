/**
 * Staff accounts as the Staff screen and the e-mailed links see them:
 * invitations, roles, deactivation, password resets and changes. Every change
 * and its audit entry are written in one transaction. Roles are decided in
 * roles.ts only; this module enforces the rules that need the database (the
 * last active owner stays an active owner; nobody changes their own account
 * here).
 *
 * Links sent by e-mail carry a random 256-bit token; only its SHA-256 is
 * stored (`staff_tokens`), and using a link deletes its row (single use).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, gt, lt, ne, sql } from "drizzle-orm";
import { generateId } from "better-auth";
import { recordAudit, type Actor } from "../audit";
import { hashPassword, verifyPassword } from "../password";
import { canManageRole, ROLE_LABELS, type Role } from "../roles";
import { db, type Db } from "./client";
import { account, mailOutbox, session, staffTokens, user } from "./schema";

export const INVITATION_HOURS = 72;
export const RESET_HOURS = 1;
/** Reset e-mails per account and hour at most (more requests are answered the same way, and nothing is sent). */
export const RESETS_PER_HOUR = 3;

export type StaffStatus = "invited" | "active" | "deactivated";
export type TokenKind = "invitation" | "reset";

/** A refusal the person can act on (the message says why and what to do). */
export class StaffError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const STAFF_MSG = {
  notFound: "That staff account no longer exists. Reload the page.",
  exists: "There is already a staff account with this e-mail address.",
  notYours: (role: Role) => `Only an owner can manage an ${ROLE_LABELS[role].toLowerCase()} account like this one.`,
  ownerOnly: "Only an owner can make someone an owner.",
  self: "You cannot change your own role or deactivate your own account. Ask another owner or admin.",
  lastOwner: "This is the last active owner: the site must keep one. Make another account an owner first.",
  notInvited: "This account has already accepted its invitation.",
  wrongPassword: "The current password is not correct.",
} as const;

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

async function issueToken(tx: Db, kind: TokenKind, userId: string, now = new Date()): Promise<string> {
  // A newer link replaces the older ones of the same kind.
  await tx.delete(staffTokens).where(and(eq(staffTokens.user_id, userId), eq(staffTokens.kind, kind)));
  const token = newToken();
  const hours = kind === "invitation" ? INVITATION_HOURS : RESET_HOURS;
  await tx
    .insert(staffTokens)
    .values({ kind, user_id: userId, token_hash: tokenHash(token), expires_at: new Date(now.getTime() + hours * 3_600_000) });
  return token;
}

export type StaffRow = {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: StaffStatus;
  twoFactor: boolean;
  passkeys: number;
  lastSignInAt: Date | null;
  createdAt: Date;
  invitationExpiresAt: Date | null;
};

/** Every staff account: owners first, then admins, editors; by e-mail within a role. */
export async function listStaff(): Promise<StaffRow[]> {
  const rows = await db()
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      status: user.status,
      twoFactor: user.twoFactorEnabled,
      lastSignInAt: user.lastSignInAt,
      createdAt: user.createdAt,
      // Written out with table names: inside a subquery Drizzle would leave "id" unqualified.
      passkeys: sql<number>`(select count(*)::int from "passkey" p where p."user_id" = "user"."id")`,
      invitationExpiresAt: sql<
        string | null
      >`(select max(t."expires_at") from "staff_tokens" t where t."user_id" = "user"."id" and t."kind" = 'invitation')`,
    })
    .from(user)
    .orderBy(sql`case ${user.role} when 'owner' then 0 when 'admin' then 1 else 2 end`, asc(user.email));
  return rows.map((r) => ({
    ...r,
    role: r.role as Role,
    status: r.status as StaffStatus,
    passkeys: Number(r.passkeys),
    invitationExpiresAt: r.invitationExpiresAt ? new Date(r.invitationExpiresAt) : null,
  }));
}

type Target = { id: string; email: string; name: string; role: Role; status: StaffStatus };

async function lockTarget(tx: Db, id: string): Promise<Target> {
  const [row] = await tx
    .select({ id: user.id, email: user.email, name: user.name, role: user.role, status: user.status })
    .from(user)
    .where(eq(user.id, id))
    .for("update");
  if (!row) throw new StaffError(STAFF_MSG.notFound, 404);
  return row as Target;
}

function checkManage(actor: Actor, actorRole: Role, target: Target) {
  if (actor.userId === target.id) throw new StaffError(STAFF_MSG.self, 403);
  if (!canManageRole(actorRole, target.role)) throw new StaffError(STAFF_MSG.notYours(target.role), 403);
}

/** Refuses a change that would leave no active owner (owner rows locked, so two owners cannot demote each other at once). */
async function keepAnOwner(tx: Db, target: Target) {
  if (target.role !== "owner" || target.status !== "active") return;
  const owners = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.role, "owner"), eq(user.status, "active")))
    .for("update");
  if (owners.filter((o) => o.id !== target.id).length === 0) throw new StaffError(STAFF_MSG.lastOwner, 409);
}

/** Creates an invited account and its link; returns the token for the e-mail. */
export async function inviteStaff(
  input: { email: string; role: Role },
  actor: Actor,
  actorRole: Role,
): Promise<{ id: string; token: string }> {
  if (!canManageRole(actorRole, input.role)) throw new StaffError(STAFF_MSG.ownerOnly, 403, "role");
  const email = input.email.trim().toLowerCase();
  return db().transaction(async (tx) => {
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.email, email));
    if (existing) throw new StaffError(STAFF_MSG.exists, 409, "email");
    const id = generateId();
    const now = new Date();
    await tx.insert(user).values({
      id,
      email,
      name: email.split("@")[0].slice(0, 100),
      emailVerified: false,
      role: input.role,
      status: "invited",
      createdAt: now,
      updatedAt: now,
    });
    const token = await issueToken(tx, "invitation", id, now);
    await recordAudit(tx, actor, {
      action: "invitation",
      itemType: "staff",
      itemId: id,
      itemLabel: email,
      changes: { invitation: { after: "sent" }, role: { after: input.role }, status: { after: "invited" } },
    });
    return { id, token };
  });
}

/** A new link for an invited account (the old one stops working). */
export async function resendInvitation(id: string, actor: Actor, actorRole: Role): Promise<{ email: string; role: Role; token: string }> {
  return db().transaction(async (tx) => {
    const target = await lockTarget(tx, id);
    checkManage(actor, actorRole, target);
    if (target.status !== "invited") throw new StaffError(STAFF_MSG.notInvited, 409);
    const token = await issueToken(tx, "invitation", id);
    await recordAudit(tx, actor, {
      action: "invitation",
      itemType: "staff",
      itemId: id,
      itemLabel: target.email,
      changes: { invitation: { after: "sent again" } },
    });
    return { email: target.email, role: target.role, token };
  });
}

/** Withdraws an invitation: the invited account and its link are removed. */
export async function withdrawInvitation(id: string, actor: Actor, actorRole: Role): Promise<string> {
  return db().transaction(async (tx) => {
    const target = await lockTarget(tx, id);
    checkManage(actor, actorRole, target);
    if (target.status !== "invited") throw new StaffError(STAFF_MSG.notInvited, 409);
    await tx.delete(user).where(and(eq(user.id, id), eq(user.status, "invited")));
    await recordAudit(tx, actor, {
      action: "invitation",
      itemType: "staff",
      itemId: id,
      itemLabel: target.email,
      changes: { invitation: { before: "sent", after: "withdrawn" }, status: { before: "invited" } },
    });
    return target.email;
  });
}

export async function changeRole(id: string, role: Role, actor: Actor, actorRole: Role): Promise<{ email: string; before: Role }> {
  return db().transaction(async (tx) => {
    const target = await lockTarget(tx, id);
    checkManage(actor, actorRole, target);
    if (!canManageRole(actorRole, role)) throw new StaffError(STAFF_MSG.ownerOnly, 403, "role");
    if (target.role === role) return { email: target.email, before: target.role };
    if (role !== "owner") await keepAnOwner(tx, target);
    await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, id));
    await recordAudit(tx, actor, {
      action: "role-change",
      itemType: "staff",
      itemId: id,
      itemLabel: target.email,
      changes: { role: { before: target.role, after: role } },
    });
    return { email: target.email, before: target.role };
  });
}

/** Deactivates an account and ends all its sessions at once. */
export async function deactivateStaff(id: string, actor: Actor, actorRole: Role): Promise<string> {
  return db().transaction(async (tx) => {
    const target = await lockTarget(tx, id);
    checkManage(actor, actorRole, target);
    if (target.status === "deactivated") return target.email;
    if (target.status !== "active") throw new StaffError("Only an active account can be deactivated; withdraw an invitation instead.", 409);
    await keepAnOwner(tx, target);
    await tx.update(user).set({ status: "deactivated", updatedAt: new Date() }).where(eq(user.id, id));
    const ended = await tx.delete(session).where(eq(session.userId, id)).returning({ id: session.id });
    await tx.delete(staffTokens).where(eq(staffTokens.user_id, id));
    await recordAudit(tx, actor, {
      action: "deactivate",
      itemType: "staff",
      itemId: id,
      itemLabel: target.email,
      changes: { status: { before: "active", after: "deactivated" }, sessions_ended: { after: ended.length } },
    });
    return target.email;
  });
}

export async function reactivateStaff(id: string, actor: Actor, actorRole: Role): Promise<string> {
  return db().transaction(async (tx) => {
    const target = await lockTarget(tx, id);
    checkManage(actor, actorRole, target);
    if (target.status !== "deactivated") return target.email;
    await tx.update(user).set({ status: "active", updatedAt: new Date() }).where(eq(user.id, id));
    await recordAudit(tx, actor, {
      action: "reactivate",
      itemType: "staff",
      itemId: id,
      itemLabel: target.email,
      changes: { status: { before: "deactivated", after: "active" } },
    });
    return target.email;
  });
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

async function setPassword(tx: Db, userId: string, hash: string) {
  const updated = await tx
    .update(account)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .returning({ id: account.id });
  if (!updated.length) {
    await tx.insert(account).values({ id: generateId(), userId, providerId: "credential", accountId: userId, password: hash });
  }
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
    await recordAudit(
      tx,
      { userId: target.id, label: target.email, ip },
      {
        action: "invitation",
        itemType: "staff",
        itemId: target.id,
        itemLabel: target.email,
        changes: {
          invitation: { before: "sent", after: "accepted" },
          status: { before: "invited", after: "active" },
          password: { hidden: true },
        },
      },
    );
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
    await recordAudit(
      tx,
      { userId: null, label: target.email, ip },
      {
        action: "invitation",
        itemType: "staff",
        itemId: target.id,
        itemLabel: target.email,
        changes: { invitation: { before: "expired", after: "sent again" } },
      },
    );
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
    await recordAudit(
      tx,
      { userId: null, label: target.email, ip },
      {
        action: "password-reset",
        itemType: "staff",
        itemId: target.id,
        itemLabel: target.email,
        changes: { reset_link: { after: `sent (Forgot password?), works for ${RESET_HOURS} hour` } },
      },
    );
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
    await recordAudit(
      tx,
      { userId: target.id, label: target.email, ip },
      {
        action: "password-reset",
        itemType: "staff",
        itemId: target.id,
        itemLabel: target.email,
        changes: { password: { hidden: true }, sessions_ended: { after: ended.length } },
      },
    );
    return { email: target.email };
  });
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
    const ended = await tx
      .delete(session)
      .where(and(eq(session.userId, staff.userId), ne(session.token, staff.sessionToken)))
      .returning({ id: session.id });
    await recordAudit(
      tx,
      { userId: staff.userId, label: staff.email, ip },
      {
        action: "password-change",
        itemType: "staff",
        itemId: staff.userId,
        itemLabel: staff.email,
        changes: { password: { hidden: true }, sessions_ended: { after: ended.length } },
      },
    );
    return ended.length;
  });
}

// ---------- one's own sessions ----------

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

/** "Sign out everywhere else": ends every session of the account but this one. */
export async function endOtherSessions(staff: { userId: string; email: string; sessionToken: string }, ip: string): Promise<number> {
  return db().transaction(async (tx) => {
    const ended = await tx
      .delete(session)
      .where(and(eq(session.userId, staff.userId), ne(session.token, staff.sessionToken)))
      .returning({ id: session.id });
    if (ended.length) {
      await recordAudit(
        tx,
        { userId: staff.userId, label: staff.email, ip },
        {
          action: "sign-out",
          itemType: "session",
          itemId: staff.userId,
          itemLabel: staff.email,
          changes: { sessions_ended: { after: ended.length } },
        },
      );
    }
    return ended.length;
  });
}

/** Records where a new session was opened from (better-auth is given no address: its endpoints are not mounted). */
export async function noteSessionAddress(token: string, ip: string, tx: Db = db()): Promise<void> {
  await tx
    .update(session)
    .set({ ipAddress: ip.slice(0, 100) })
    .where(eq(session.token, token));
}

/** Removes links past their expiry by more than a week (the retention job). */
export async function sweepStaffTokens(now = new Date()): Promise<number> {
  const removed = await db()
    .delete(staffTokens)
    .where(lt(staffTokens.expires_at, new Date(now.getTime() - 7 * 24 * 3_600_000)))
    .returning({ id: staffTokens.id });
  return removed.length;
}

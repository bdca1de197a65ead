/**
 * Staff accounts as the Staff screen sees them: invitations, roles,
 * deactivation (the e-mailed links are in staff-links.ts, passwords in
 * staff-passwords.ts, one's own sessions in staff-sessions.ts). Every change
 * and its audit entry are written in one transaction. Roles are decided in
 * roles.ts only; this module enforces the rules that need the database (the
 * last active owner stays an active owner; nobody changes their own account
 * here).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { generateId } from "better-auth";
import { recordAudit, type Actor } from "./audit";
import { canManageRole, ROLE_LABELS, type Role } from "../auth/roles";
import { db, type Db } from "./client";
import { session, staffTokens, user, type StaffStatus } from "./schema";
import { issueToken } from "./staff-links";

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

/** How many active owner accounts there are (the start-up log says whether anyone can sign in to manage the site). */
export async function countActiveOwners(): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(user)
    .where(and(eq(user.role, "owner"), eq(user.status, "active")));
  return Number(row?.n ?? 0);
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

/**
 * Staff accounts made outside the dashboard: the owner from ADMIN_EMAIL at
 * start-up, `npm run admin:create` and `npm run admin:password`. Each change
 * and its audit entry are one transaction (through better-auth's adapter).
 */
import { eq } from "drizzle-orm";
import { recordAudit, systemActor, type Actor } from "../db/audit";
import { getAuth, withAuthTransaction } from "./auth";
import { isUniqueViolation } from "../db/errors";
import * as schema from "../db/schema";
import { hashPassword } from "./password";
import type { Role } from "./roles";

/**
 * Creates a staff account (sign-up stays disabled) and records it in the
 * audit trail in the same transaction, by `actor` (ADMIN_EMAIL at start-up,
 * `npm run admin:create`: a system actor). Returns false when the e-mail
 * already exists.
 */
export async function createStaffAccount(
  email: string,
  password: string,
  name = "Staff",
  role: Role = "owner",
  actor: Actor = systemActor("staff account set-up"),
): Promise<boolean> {
  const ctx = await getAuth().$context;
  const normalised = email.trim().toLowerCase();
  if (await ctx.internalAdapter.findUserByEmail(normalised)) return false;
  // Hashed before the transaction opens (scrypt takes a while; nothing is locked meanwhile).
  const hash = await hashPassword(password);
  try {
    return await withAuthTransaction(async (tx) => {
      const user = await ctx.internalAdapter.createUser(
        { email: normalised, name, emailVerified: true, role, status: "active" },
        { method: "admin" },
      );
      await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
      await recordAudit(tx, actor, {
        action: "create",
        itemType: "staff",
        itemId: user.id,
        itemLabel: normalised,
        changes: { role: { after: role }, status: { after: "active" }, password: { hidden: true } },
      });
      return true;
    });
  } catch (error) {
    // Another process (a second server starting at the same time) created it first: nothing of ours was kept.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Sets a new password and ends every session of that account, recorded in
 * the audit trail in the same transaction (`npm run admin:password`: a system
 * actor); false when no such account.
 */
export async function resetStaffPassword(
  email: string,
  password: string,
  actor: Actor = systemActor("staff account set-up"),
): Promise<boolean> {
  const ctx = await getAuth().$context;
  const normalised = email.trim().toLowerCase();
  if (!(await ctx.internalAdapter.findUserByEmail(normalised))) return false;
  const hash = await hashPassword(password);
  return withAuthTransaction(async (tx) => {
    // Looked up again inside the transaction: the account may have gone meanwhile.
    const found = await ctx.internalAdapter.findUserByEmail(normalised);
    if (!found) return false;
    const accounts = await ctx.internalAdapter.findAccounts(found.user.id);
    if (accounts.some((a) => a.providerId === "credential")) await ctx.internalAdapter.updatePassword(found.user.id, hash);
    else
      await ctx.internalAdapter.linkAccount({
        userId: found.user.id,
        providerId: "credential",
        accountId: found.user.id,
        password: hash,
      });
    const ended = await tx.delete(schema.session).where(eq(schema.session.userId, found.user.id)).returning({ id: schema.session.id });
    await recordAudit(tx, actor, {
      action: "password-reset",
      itemType: "staff",
      itemId: found.user.id,
      itemLabel: found.user.email,
      changes: { password: { hidden: true }, sessions_ended: { after: ended.length } },
    });
    return true;
  });
}

/**
 * Sign-in limits kept in the database, so they hold across restarts and
 * across several server processes on one PostgreSQL:
 * - one account: 5 failures in 15 minutes locks it for the rest of that
 *   window; 100 failures in an hour refuses it for the hour, from any address;
 * - one address: 30 failures in 15 minutes refuses that address.
 * Keyed by the typed e-mail, so the answer is the same whether the account exists.
 */
import { and, eq } from "drizzle-orm";
import { attemptsSince, pruneAttempts } from "../db/attempts";
import { db, type Db } from "../db/client";
import { loginAttempts } from "../db/schema";

export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_MAX_FAILURES = 5;
export const ACCOUNT_HOURLY_MAX_FAILURES = 100;
export const IP_WINDOW_MS = 15 * 60 * 1000;
export const IP_MAX_FAILURES = 30;

export const LOCKED_MESSAGE =
  "Too many failed sign-in attempts. For your security, sign-in is paused for 15 minutes. Please try again later or contact your site administrator.";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase().slice(0, 320);
}

function failuresSince(column: typeof loginAttempts.email | typeof loginAttempts.ip, value: string, since: Date, tx: Db = db()) {
  return attemptsSince(loginAttempts, and(eq(column, value), eq(loginAttempts.success, false)), since, tx);
}

/** Null when a sign-in may be tried; otherwise the message to show. */
export async function signInBlocked(email: string, ip: string, now = new Date(), tx: Db = db()): Promise<string | null> {
  const key = normaliseEmail(email);
  const recent = await failuresSince(loginAttempts.email, key, new Date(now.getTime() - ACCOUNT_WINDOW_MS), tx);
  const hourly = await failuresSince(loginAttempts.email, key, new Date(now.getTime() - 60 * 60 * 1000), tx);
  const byIp = await failuresSince(loginAttempts.ip, ip, new Date(now.getTime() - IP_WINDOW_MS), tx);
  if (recent >= ACCOUNT_MAX_FAILURES || hourly >= ACCOUNT_HOURLY_MAX_FAILURES || byIp >= IP_MAX_FAILURES) return LOCKED_MESSAGE;
  return null;
}

/** For sign-ins that name no account (passkeys): only the address limit applies. */
export async function addressBlocked(ip: string, now = new Date()): Promise<string | null> {
  const byIp = await failuresSince(loginAttempts.ip, ip, new Date(now.getTime() - IP_WINDOW_MS));
  return byIp >= IP_MAX_FAILURES ? LOCKED_MESSAGE : null;
}

export async function recordSignIn(email: string, ip: string, success: boolean, tx: Db = db()): Promise<void> {
  await tx.insert(loginAttempts).values({ email: normaliseEmail(email), ip, success });
}

/** Drops attempts older than a day (called now and then). */
export async function pruneSignInAttempts(now = new Date()): Promise<void> {
  await pruneAttempts(loginAttempts, new Date(now.getTime() - 24 * 60 * 60 * 1000));
}

/**
 * Staff sign-in and sign-out through better-auth, behind the database-kept
 * limits: e-mail and password, then (when the account has it) the code of an
 * authenticator app or a recovery code (better-auth's two-factor plugin); or
 * a passkey (its passkey plugin). Wrong codes count like wrong passwords.
 */
import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { createCookie } from "react-router";
import { STAFF_TEXT } from "~/lib/forms/staff";
import { recordAudit } from "../db/audit";
import { authHeaders, getAuth, withAuthTransaction } from "./auth";
import { type StaffSession } from "./staff-session";
import { db, type Db } from "../db/client";
import { user } from "../db/schema";
import { noteSessionAddress } from "../db/staff-sessions";
import { getEnv } from "../env";
import { log } from "../log";
import { addressBlocked, normaliseEmail, recordSignIn, signInBlocked } from "./login-limits";

export const LOGIN_ERROR = "An error occurred during login. Please contact your site administrator.";
export const LOGOUT_ERROR = "An error occurred during logout. Please contact your site administrator.";
export const CODE_ERROR =
  "That code is not correct. Type the 6-digit code your authenticator app shows now, or one of your recovery codes.";
export const CODE_EXPIRED = "Your sign-in has expired (the code must be typed within 10 minutes). Please sign in again.";
export const PASSKEY_ERROR = STAFF_TEXT.passkeyFailure;

export type SignInResult =
  | { ok: true; headers: Headers }
  /** Password accepted; the account has two-factor sign-in: ask for the code (headers carry the challenge cookie). */
  | { ok: "two-factor"; headers: Headers }
  | { ok: false; message: string; status: number };

export async function signIn(request: Request, email: string, password: string, ip: string): Promise<SignInResult> {
  try {
    return await attemptSignIn(request, email, password, ip);
  } catch (error) {
    // The database is unreachable (or another fault): the spec's failure message, the form kept, 503.
    log("error", "sign-in unavailable", { email: normaliseEmail(email), ip, error: (error as Error).message });
    return { ok: false, message: LOGIN_ERROR, status: 503 };
  }
}

/**
 * Success, inside the transaction better-auth made the session in
 * (`withAuthTransaction`): the attempt, the last sign-in time, the session's
 * address and the trail entry are committed with the session, or none is.
 */
async function signedIn(tx: Db, userId: string, key: string, ip: string, token: string | undefined, method: string) {
  await recordSignIn(key, ip, true, tx);
  await tx.update(user).set({ lastSignInAt: new Date() }).where(eq(user.id, userId));
  await recordAudit(
    tx,
    { userId, label: key, ip },
    { action: "sign-in", itemType: "session", itemId: userId, itemLabel: key, changes: { method: { after: method } } },
  );
  if (token) await noteSessionAddress(token, ip, tx);
}

/**
 * Failure: counted against the account and the address; the failure that
 * reaches the limit is recorded as a lockout. Entries for an existing
 * account carry its id (the Activity screen's person filter finds them, and
 * they link to the account); a name no account has stays under "system".
 * Also used by My account, where a wrong current password counts the same.
 */
export async function recordFailedSignIn(email: string, ip: string, reason: string): Promise<void> {
  const key = normaliseEmail(email);
  await db().transaction(async (tx) => {
    const [account] = await tx.select({ id: user.id }).from(user).where(eq(user.email, key));
    const actor = { userId: account?.id ?? null, label: key, ip };
    await recordSignIn(key, ip, false, tx);
    await recordAudit(tx, actor, {
      action: "failed-sign-in",
      itemType: "session",
      itemId: account?.id,
      itemLabel: key,
      changes: { reason: { after: reason } },
    });
    // The failure that reaches the limit is the lockout: recorded with it.
    if (await signInBlocked(key, ip, new Date(), tx)) {
      await recordAudit(tx, actor, { action: "lockout", itemType: "session", itemId: account?.id, itemLabel: key });
    }
  });
  log("warn", "sign-in failed", { email: key, ip, reason });
}

async function attemptSignIn(request: Request, email: string, password: string, ip: string): Promise<SignInResult> {
  const key = normaliseEmail(email);
  const blocked = await signInBlocked(key, ip);
  if (blocked) {
    // Not recorded again in the trail: the lockout was, when the failure that caused it happened.
    log("warn", "sign-in refused (limit)", { email: key, ip });
    return { ok: false, message: blocked, status: 429 };
  }
  // Invited (no password yet) and deactivated accounts cannot sign in: the same answer as a wrong password.
  const [account] = await db().select({ status: user.status }).from(user).where(eq(user.email, key));
  if (account && account.status !== "active") {
    await recordFailedSignIn(key, ip, account.status);
    return { ok: false, message: LOGIN_ERROR, status: 401 };
  }
  try {
    const headers = authHeaders(request);
    // A fresh session id at every sign-in: any session cookie sent along is ignored.
    headers.delete("cookie");
    const { responseHeaders, twoFactor } = await withAuthTransaction(async (tx) => {
      const { headers: responseHeaders, response } = await getAuth().api.signInEmail({
        // rememberMe keeps the 30-minute expiry (refreshed while active) on the server; without it better-auth makes a 1-day session.
        body: { email: key, password, rememberMe: true },
        headers,
        returnHeaders: true,
      });
      const body = response as { twoFactorRedirect?: boolean; token?: string; user?: { id?: string } } | undefined;
      // With two-factor sign-in the password was right; it completes with the code (verifySecondFactor).
      if (!body?.twoFactorRedirect) await signedIn(tx, body?.user?.id ?? "", key, ip, body?.token, "password");
      return { responseHeaders, twoFactor: Boolean(body?.twoFactorRedirect) };
    });
    if (twoFactor) {
      const out = new Headers(responseHeaders);
      out.append("Set-Cookie", await pendingCookie().serialize({ email: key }));
      return { ok: "two-factor", headers: out };
    }
    log("info", "sign-in succeeded", { email: key, ip, method: "password" });
    return { ok: true, headers: responseHeaders };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    await recordFailedSignIn(key, ip, "password");
    return { ok: false, message: LOGIN_ERROR, status: 401 };
  }
}

// ---------- the second factor ----------

/** Who is between password and code (signed, 10 minutes, like better-auth's own challenge cookie). */
function pendingCookie() {
  const env = getEnv();
  return createCookie("firm_2fa_pending", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.publicUrl.startsWith("https://"),
    secrets: [env.authSecret],
    maxAge: 600,
  });
}

/** The e-mail waiting for its code, or null (no sign-in under way, or it expired). */
export async function pendingTwoFactor(request: Request): Promise<string | null> {
  const cookie = request.headers.get("cookie");
  if (!cookie?.includes("firm_2fa_pending=") || !cookie.includes("two_factor")) return null;
  const value = (await pendingCookie()
    .parse(cookie)
    .catch(() => null)) as { email?: unknown } | null;
  return typeof value?.email === "string" ? value.email : null;
}

export type SecondFactorResult = { ok: true; headers: Headers } | { ok: false; message: string; status: number; restart?: boolean };

export async function verifySecondFactor(request: Request, code: string, ip: string): Promise<SecondFactorResult> {
  const key = await pendingTwoFactor(request);
  if (!key) return { ok: false, message: CODE_EXPIRED, status: 401, restart: true };
  try {
    const blocked = await signInBlocked(key, ip);
    if (blocked) return { ok: false, message: blocked, status: 429 };
    const cleaned = code.replace(/\s+/g, "");
    const totp = /^\d{6}$/.test(cleaned);
    const args = { body: { code: cleaned }, headers: authHeaders(request), returnHeaders: true as const };
    const method = totp ? "password and authenticator code" : "password and recovery code";
    let result;
    try {
      result = await withAuthTransaction(async (tx) => {
        const result = totp ? await getAuth().api.verifyTOTP(args) : await getAuth().api.verifyBackupCode(args);
        const body = result.response as { token?: string; user?: { id?: string } };
        await signedIn(tx, body.user?.id ?? "", key, ip, body.token, method);
        return result;
      });
    } catch (error) {
      if (!(error instanceof APIError)) throw error;
      const reason = String(error.body?.code ?? error.status);
      if (/INVALID_TWO_FACTOR_COOKIE|TOO_MANY_ATTEMPTS/.test(reason)) {
        await recordFailedSignIn(key, ip, totp ? "authenticator code" : "recovery code");
        return { ok: false, message: CODE_EXPIRED, status: 401, restart: true };
      }
      if (/LOCKED/.test(reason)) return { ok: false, message: (await signInBlocked(key, ip)) ?? CODE_EXPIRED, status: 429 };
      await recordFailedSignIn(key, ip, totp ? "authenticator code" : "recovery code");
      const now = await signInBlocked(key, ip);
      return { ok: false, message: now ?? CODE_ERROR, status: now ? 429 : 401 };
    }
    log("info", "sign-in succeeded", { email: key, ip, method });
    const headers = new Headers(result.headers);
    headers.append("Set-Cookie", await pendingCookie().serialize("", { maxAge: 0 }));
    return { ok: true, headers };
  } catch (error) {
    log("error", "two-factor sign-in unavailable", { email: key, ip, error: (error as Error).message });
    return { ok: false, message: LOGIN_ERROR, status: 503 };
  }
}

// ---------- passkeys ----------

/** Options for the browser's passkey prompt, and the headers holding its challenge cookie. */
export async function passkeySignInOptions(request: Request): Promise<{ options: unknown; headers: Headers }> {
  const headers = authHeaders(request);
  headers.delete("cookie");
  const result = await getAuth().api.generatePasskeyAuthenticationOptions({ headers, returnHeaders: true });
  return { options: result.response, headers: result.headers };
}

export async function passkeySignIn(request: Request, response: Record<string, unknown>, ip: string): Promise<SignInResult> {
  try {
    const blocked = await addressBlocked(ip);
    if (blocked) return { ok: false, message: blocked, status: 429 };
    // The session better-auth makes is committed only with its trail entry; a deactivated
    // account's passkey, or an account over its limit, opens nothing (the session is rolled back).
    class Refused extends Error {
      constructor(
        readonly answer: SignInResult,
        readonly failure?: { key: string; reason: string },
      ) {
        super("refused");
      }
    }
    let result;
    try {
      result = await withAuthTransaction(async (tx) => {
        const result = await getAuth().api.verifyPasskeyAuthentication({
          body: { response: response as never },
          headers: authHeaders(request),
          returnHeaders: true,
        });
        const body = result.response as { session?: { token?: string }; user?: { id?: string; email?: string; status?: string } };
        const key = normaliseEmail(body.user?.email ?? "");
        if (body.user?.status !== "active") {
          throw new Refused(
            { ok: false, message: LOGIN_ERROR, status: 401 },
            { key, reason: `passkey: ${body.user?.status ?? "no account"}` },
          );
        }
        const accountBlocked = await signInBlocked(key, ip, new Date(), tx);
        if (accountBlocked) throw new Refused({ ok: false, message: accountBlocked, status: 429 });
        await signedIn(tx, body.user.id ?? "", key, ip, body.session?.token, "passkey");
        log("info", "sign-in succeeded", { email: key, ip, method: "passkey" });
        return result;
      });
    } catch (error) {
      if (error instanceof Refused) {
        if (error.failure) await recordFailedSignIn(error.failure.key, ip, error.failure.reason);
        return error.answer;
      }
      if (!(error instanceof APIError)) throw error;
      await recordFailedSignIn("(passkey)", ip, `passkey: ${String(error.body?.code ?? error.status)}`);
      return { ok: false, message: PASSKEY_ERROR, status: 401 };
    }
    return { ok: true, headers: result.headers };
  } catch (error) {
    log("error", "passkey sign-in unavailable", { ip, error: (error as Error).message });
    return { ok: false, message: LOGIN_ERROR, status: 503 };
  }
}

/** Ends the session on the server (and records it); returns headers that clear the cookie. */
export async function signOut(request: Request, staff: StaffSession, ip: string): Promise<Headers> {
  return withAuthTransaction(async (tx) => {
    const { headers } = await getAuth().api.signOut({ headers: authHeaders(request), returnHeaders: true });
    await recordAudit(
      tx,
      { userId: staff.userId, label: staff.email, ip },
      { action: "sign-out", itemType: "session", itemId: staff.userId, itemLabel: staff.email },
    );
    return headers;
  });
}

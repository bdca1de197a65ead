/**
 * Staff sign-in with better-auth, used as a library: its HTTP endpoints are
 * not mounted; our own /admin action and requireStaff() call its API on the
 * server. E-mail and password, sessions in the database, sign-up disabled.
 * Two-factor sign-in (TOTP, recovery codes) and passkeys come from its
 * two-factor and passkey plugins, whose endpoints our own loaders and actions
 * call through `auth.api` the same way (decision 0011).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins/two-factor";
import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import { FIRM } from "~/config/firm";
import { isWriteMethod } from "~/lib/http";
import { recordAudit, systemActor, type Actor } from "./audit";
import { db, type Db } from "./db/client";
import { isUniqueViolation } from "./db/errors";
import * as schema from "./db/schema";
import { getEnv } from "./env";
import { log } from "./log";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "./password";
import { can, FORBIDDEN_MESSAGE, isRole, type Permission, type Role } from "./roles";
import { twoFactorRequired } from "./db/settings";

/** Staff sessions end after 30 minutes idle and 12 hours in all. */
export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

/** Wrong two-factor codes: 5 in a row lock that account's code step for 15 minutes (besides login-limits.ts). */
export const TWO_FACTOR_MAX_FAILURES = 5;
export const TWO_FACTOR_LOCK_SECONDS = 15 * 60;

/**
 * better-auth writes through this database: the open transaction of
 * `withAuthTransaction` when there is one, else the pool. A plugin's change
 * (two-factor on or off, a passkey added or removed, a session ended) and its
 * audit entry are then committed together, or neither is.
 */
const authTransaction = new AsyncLocalStorage<Db>();
const authDatabase = new Proxy({} as Db, {
  get(_, property) {
    const target = authTransaction.getStore() ?? db();
    const value: unknown = Reflect.get(target, property, target);
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  },
});

/**
 * Runs `work` in one database transaction that better-auth's own writes join
 * (through `authDatabase`); pass `tx` to `recordAudit`. A throw rolls back both.
 */
export function withAuthTransaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
  return db().transaction((tx) => authTransaction.run(tx as unknown as Db, () => work(tx as unknown as Db)));
}

function createAuth() {
  const env = getEnv();
  const site = new URL(env.publicUrl);
  return betterAuth({
    appName: "Firm dashboard",
    baseURL: env.publicUrl,
    secret: env.authSecret,
    trustedOrigins: [env.publicUrl],
    database: drizzleAdapter(authDatabase, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
        passkey: schema.passkey,
      },
    }),
    // Identifiers of verification rows (two-factor challenges, passkey challenges) are stored as SHA-256 hashes.
    verification: { storeIdentifier: "hashed" },
    plugins: [
      twoFactor({
        issuer: FIRM.name,
        accountLockout: { enabled: true, maxFailedAttempts: TWO_FACTOR_MAX_FAILURES, durationSeconds: TWO_FACTOR_LOCK_SECONDS },
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
      }),
      passkey({
        rpID: site.hostname,
        rpName: FIRM.name,
        // The one origin a passkey answer may come from (not the request's Origin header).
        origin: site.origin,
        advanced: { webAuthnChallengeCookie: "passkey-challenge" },
      }),
    ],
    user: {
      // Kept by our own code (roles.ts, the Staff screen), never taken from a request body.
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "editor", input: false },
        status: { type: "string", required: false, defaultValue: "active", input: false },
        lastSignInAt: { type: "date", required: false, input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      password: { hash: hashPassword, verify: verifyPassword },
      revokeSessionsOnPasswordReset: true,
    },
    session: {
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: 60,
      cookieCache: { enabled: false },
    },
    // Limits are ours, kept in the database (see login-limits.ts).
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "firm",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
    // Into our JSON log: one line with the error's message, no stack or query parameters.
    logger: {
      level: "error",
      log: (level, message, ...args) => {
        const error = args.flat().find((a): a is Error => a instanceof Error);
        log(level === "error" ? "error" : "warn", `better-auth: ${message}`, error ? { error: error.message } : {});
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const holder = globalThis as unknown as { __firmAuth?: Auth; __firmAuthDb?: unknown; __firmAuthEnv?: unknown };

export function getAuth(): Auth {
  // Recreated when the database or environment changes (tests open a fresh one per file).
  if (!holder.__firmAuth || holder.__firmAuthDb !== db() || holder.__firmAuthEnv !== getEnv()) {
    holder.__firmAuth = createAuth();
    holder.__firmAuthDb = db();
    holder.__firmAuthEnv = getEnv();
  }
  return holder.__firmAuth;
}

export type StaffSession = {
  userId: string;
  email: string;
  name: string;
  role: Role;
  sessionToken: string;
  /** TOTP two-factor sign-in set up and confirmed. */
  twoFactor: boolean;
};

/** Headers passed to better-auth: the cookie and who is asking, nothing else. */
export function authHeaders(request: Request): Headers {
  const headers = new Headers();
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  const ua = request.headers.get("user-agent");
  if (ua) headers.set("user-agent", ua.slice(0, 300));
  return headers;
}

/** One session check per request, however many loaders (layout and page) ask. */
const checked = new WeakMap<Request, Promise<StaffSession | null>>();

/** The signed-in staff member of a request, or null. Sessions past 12 hours are ended. */
export function getStaff(request: Request): Promise<StaffSession | null> {
  let pending = checked.get(request);
  if (!pending) {
    pending = checkStaff(request);
    checked.set(request, pending);
  }
  return pending;
}

async function checkStaff(request: Request): Promise<StaffSession | null> {
  if (!request.headers.get("cookie")?.includes("firm.session_token")) return null;
  const auth = getAuth();
  const result = await auth.api.getSession({ headers: authHeaders(request) });
  if (!result) return null;
  const age = Date.now() - new Date(result.session.createdAt).getTime();
  const user = result.user as typeof result.user & { role?: unknown; status?: unknown; twoFactorEnabled?: unknown };
  if (age > SESSION_ABSOLUTE_SECONDS * 1000 || user.status !== "active" || !isRole(user.role)) {
    // Past 12 hours, or the account was deactivated (or is not a staff account): the session ends here.
    const ctx = await auth.$context;
    await ctx.internalAdapter.deleteSession(result.session.token);
    return null;
  }
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    sessionToken: result.session.token,
    twoFactor: user.twoFactorEnabled === true,
  };
}

export const SESSION_CHECK_UNAVAILABLE = "The dashboard is briefly unavailable. Please try again in a moment.";

/** True for requireStaff's answer when the database could not check the session. */
export function isSessionCheckUnavailable(error: unknown): error is Response {
  return error instanceof Response && error.status === 503;
}

/**
 * Every dashboard loader and action calls this first. Without a session a
 * page redirects to /admin (and back after sign-in); an action answers 401
 * and writes nothing. With a `permission` the account's role must grant it
 * (roles.ts), else 403 and nothing is shown or written. When the database
 * does not answer it throws a 503 (a page shows "We'll be right back";
 * actions call refuseUnlessStaff, which turns it into the form's own error
 * so nothing typed is lost).
 */
export const TWO_FACTOR_SETUP_PATH = "/dashboard/account/two-factor";
export const TWO_FACTOR_REQUIRED_MESSAGE =
  "Two-factor sign-in is required for every staff account on this site. Set it up under My account before doing anything else.";

export async function requireStaff(
  request: Request,
  permission?: Permission,
  options: {
    /** Pages that set up two-factor sign-in: open while an owner requires it and it is not set up yet. */ twoFactorSetup?: boolean;
  } = {},
): Promise<StaffSession> {
  let staff: StaffSession | null;
  try {
    staff = await getStaff(request);
  } catch (error) {
    if (error instanceof Response) throw error;
    // The database did not answer: the session cannot be checked, so nothing is shown or written.
    log("error", "session check failed", { path: new URL(request.url).pathname, error: (error as Error).message });
    throw new Response(SESSION_CHECK_UNAVAILABLE, { status: 503, headers: { "Retry-After": "5" } });
  }
  if (staff) {
    if (!staff.twoFactor && !options.twoFactorSetup && (await twoFactorRequiredOrUnavailable(request))) {
      // An owner requires two-factor sign-in: nothing else opens until it is set up.
      if (isWriteMethod(request.method)) throw new Response(TWO_FACTOR_REQUIRED_MESSAGE, { status: 403 });
      throw redirect(TWO_FACTOR_SETUP_PATH);
    }
    if (permission && !can(staff.role, permission)) {
      log("warn", "refused by role", { path: new URL(request.url).pathname, method: request.method, role: staff.role, permission });
      throw new Response(FORBIDDEN_MESSAGE, { status: 403 });
    }
    return staff;
  }
  if (isWriteMethod(request.method)) {
    throw new Response("Your session has ended. Sign in again; nothing was saved.", { status: 401 });
  }
  const url = new URL(request.url);
  throw redirect(`/admin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

async function twoFactorRequiredOrUnavailable(request: Request): Promise<boolean> {
  try {
    return await twoFactorRequired();
  } catch (error) {
    log("error", "session check failed", { path: new URL(request.url).pathname, error: (error as Error).message });
    throw new Response(SESSION_CHECK_UNAVAILABLE, { status: 503, headers: { "Retry-After": "5" } });
  }
}

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

/**
 * Staff sign-in with better-auth, used as a library: its HTTP endpoints are
 * not mounted; our own /admin action and requireStaff() call its API on the
 * server. E-mail and password, sessions in the database, sign-up disabled.
 */
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { redirect } from "react-router";
import { db } from "./db/client";
import { isUniqueViolation } from "./db/team";
import * as schema from "./db/schema";
import { getEnv } from "./env";
import { log } from "./log";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "./password";

/** Staff sessions end after 30 minutes idle and 12 hours in all. */
export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

function createAuth() {
  const env = getEnv();
  return betterAuth({
    appName: "Firm dashboard",
    baseURL: env.publicUrl,
    secret: env.authSecret,
    trustedOrigins: [env.publicUrl],
    database: drizzleAdapter(db(), {
      provider: "pg",
      schema: { user: schema.user, session: schema.session, account: schema.account, verification: schema.verification },
    }),
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

export type StaffSession = { userId: string; email: string; name: string; sessionToken: string };

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
  if (age > SESSION_ABSOLUTE_SECONDS * 1000) {
    const ctx = await auth.$context;
    await ctx.internalAdapter.deleteSession(result.session.token);
    return null;
  }
  return { userId: result.user.id, email: result.user.email, name: result.user.name, sessionToken: result.session.token };
}

function isMutation(request: Request) {
  return !["GET", "HEAD", "OPTIONS"].includes(request.method.toUpperCase());
}

export const SESSION_CHECK_UNAVAILABLE = "The dashboard is briefly unavailable. Please try again in a moment.";

/** True for requireStaff's answer when the database could not check the session. */
export function isSessionCheckUnavailable(error: unknown): error is Response {
  return error instanceof Response && error.status === 503;
}

/**
 * Every dashboard loader and action calls this first. Without a session a
 * page redirects to /admin (and back after sign-in); an action answers 401
 * and writes nothing. When the database does not answer it throws a 503
 * (a page shows "We'll be right back"; actions call refuseUnlessStaff, which
 * turns it into the form's own error so nothing typed is lost).
 */
export async function requireStaff(request: Request): Promise<StaffSession> {
  let staff: StaffSession | null;
  try {
    staff = await getStaff(request);
  } catch (error) {
    if (error instanceof Response) throw error;
    // The database did not answer: the session cannot be checked, so nothing is shown or written.
    log("error", "session check failed", { path: new URL(request.url).pathname, error: (error as Error).message });
    throw new Response(SESSION_CHECK_UNAVAILABLE, { status: 503, headers: { "Retry-After": "5" } });
  }
  if (staff) return staff;
  if (isMutation(request)) {
    throw new Response("Your session has ended. Sign in again; nothing was saved.", { status: 401 });
  }
  const url = new URL(request.url);
  throw redirect(`/admin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** Creates a staff account (sign-up stays disabled); returns false when the e-mail already exists. */
export async function createStaffAccount(email: string, password: string, name = "Staff"): Promise<boolean> {
  const ctx = await getAuth().$context;
  const normalised = email.trim().toLowerCase();
  if (await ctx.internalAdapter.findUserByEmail(normalised)) return false;
  let user;
  try {
    user = await ctx.internalAdapter.createUser({ email: normalised, name, emailVerified: true }, { method: "admin" });
  } catch (error) {
    // Another process (a second server starting at the same time) created it first.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: await hashPassword(password),
  });
  return true;
}

/** Sets a new password and ends every session of that account; false when no such account. */
export async function resetStaffPassword(email: string, password: string): Promise<boolean> {
  const ctx = await getAuth().$context;
  const found = await ctx.internalAdapter.findUserByEmail(email.trim().toLowerCase());
  if (!found) return false;
  const hash = await hashPassword(password);
  const accounts = await ctx.internalAdapter.findAccounts(found.user.id);
  if (accounts.some((a) => a.providerId === "credential")) await ctx.internalAdapter.updatePassword(found.user.id, hash);
  else await ctx.internalAdapter.linkAccount({ userId: found.user.id, providerId: "credential", accountId: found.user.id, password: hash });
  await ctx.internalAdapter.deleteUserSessions(found.user.id);
  return true;
}

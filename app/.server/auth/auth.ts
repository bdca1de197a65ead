/**
 * better-auth's configuration, used as a library: its HTTP endpoints are
 * not mounted; our own /admin action and the session check (staff-session.ts) call its API on the
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
import { FIRM } from "~/config/firm";
import { db, type Database, type Db } from "../db/client";
import * as schema from "../db/schema";
import { getEnv } from "../env";
import { log } from "../log";
import { currentServices, type Services } from "../services";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "./password";

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
function authDatabase(database: Database): Db {
  return new Proxy({} as Db, {
    get(_, property) {
      const target = authTransaction.getStore() ?? database.db;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Runs `work` in one database transaction that better-auth's own writes join
 * (through `authDatabase`); pass `tx` to `recordAudit`. A throw rolls back both.
 */
export function withAuthTransaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
  return db().transaction((tx) => authTransaction.run(tx as unknown as Db, () => work(tx as unknown as Db)));
}

function createAuth(database: Database) {
  const env = getEnv();
  const site = new URL(env.publicUrl);
  return betterAuth({
    appName: "Firm dashboard",
    baseURL: env.publicUrl,
    secret: env.authSecret,
    trustedOrigins: [env.publicUrl],
    database: drizzleAdapter(authDatabase(database), {
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

/**
 * better-auth over the database of `services` (the process's, or a request context's: http/request-context.ts),
 * kept in them and made again when the database or environment changes (tests open a fresh one per file).
 */
export function getAuth(services: Services = currentServices()): Auth {
  const database = services.database;
  if (!database) throw new Error("The database is not open yet (call openDatabase at start-up).");
  const env = getEnv();
  const held = services.auth;
  if (held?.database === database && held.env === env) return held.auth;
  const auth = createAuth(database);
  services.auth = { auth, database, env };
  return auth;
}

/** Headers passed to better-auth: the cookie and who is asking, nothing else. */
export function authHeaders(request: Request): Headers {
  const headers = new Headers();
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  const ua = request.headers.get("user-agent");
  if (ua) headers.set("user-agent", ua.slice(0, 300));
  return headers;
}

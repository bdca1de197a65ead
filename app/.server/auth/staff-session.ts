/**
 * The staff session check (the dashboard's guard and the sign-in pages ask
 * it): one check per request through better-auth, sessions past 12 hours or
 * of deactivated accounts ended, the role's permission and an owner's
 * two-factor requirement applied (roles.ts says what a role may do).
 */
import { redirect } from "react-router";
import { isWriteMethod } from "~/lib/http";
import { authHeaders, getAuth, SESSION_ABSOLUTE_SECONDS } from "./auth";
import { twoFactorRequired } from "../db/settings";
import { log } from "../log";
import { currentServices, type Services } from "../services";
import { can, FORBIDDEN_MESSAGE, isRole, type Permission, type Role } from "./roles";

export type StaffSession = {
  userId: string;
  email: string;
  name: string;
  role: Role;
  sessionToken: string;
  /** TOTP two-factor sign-in set up and confirmed. */
  twoFactor: boolean;
};

/** One session check per request, however many loaders (layout and page) ask. */
const checked = new WeakMap<Request, Promise<StaffSession | null>>();

/**
 * The signed-in staff member of a request, or null. Sessions past 12 hours are ended. Checked by the
 * better-auth of `services`: a loader or action passes its context's (`context.get(servicesContext)`).
 */
export function getStaff(request: Request, services: Services = currentServices()): Promise<StaffSession | null> {
  let pending = checked.get(request);
  if (!pending) {
    pending = checkStaff(request, services);
    checked.set(request, pending);
  }
  return pending;
}

async function checkStaff(request: Request, services: Services): Promise<StaffSession | null> {
  if (!request.headers.get("cookie")?.includes("firm.session_token")) return null;
  const auth = getAuth(services);
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

export const TWO_FACTOR_SETUP_PATH = "/dashboard/account/two-factor";
export const TWO_FACTOR_REQUIRED_MESSAGE =
  "Two-factor sign-in is required for every staff account on this site. Set it up under My account before doing anything else.";

/**
 * The dashboard's guard (admin/guard.server.ts) calls this first. Without a session a
 * page redirects to /admin (and back after sign-in); an action answers 401
 * and writes nothing. With a `permission` the account's role must grant it
 * (roles.ts), else 403 and nothing is shown or written. When the database
 * does not answer it throws a 503 (a page shows "We'll be right back"; the
 * guard lets a save reach its action, which answers with the form's own
 * message, so nothing typed is lost).
 */
export async function requireStaff(
  request: Request,
  permission?: Permission,
  options: {
    /** Pages that set up two-factor sign-in: open while an owner requires it and it is not set up yet. */ twoFactorSetup?: boolean;
    /** The services whose better-auth checks the session (the request context's; the process's by default). */ services?: Services;
  } = {},
): Promise<StaffSession> {
  let staff: StaffSession | null;
  try {
    staff = await getStaff(request, options.services);
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

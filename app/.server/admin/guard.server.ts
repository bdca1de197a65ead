/**
 * The dashboard's one gate: React Router middleware on the dashboard layout
 * (routes/admin/layout.tsx). Every request for a route under the layout
 * passes here before any loader or action runs:
 *
 * - the route's declared permission is read from its `handle`
 *   (lib/route-handle.ts) by the pattern React Router matched; a route that
 *   declares none is refused (403), so a new screen is closed until it says
 *   who may open it;
 * - `requireStaff` (auth.ts) checks the session, with the better-auth of the
 *   request context's services (`servicesContext`), and asks roles.ts whether the
 *   role has that permission: no session → sign-in page (a page) or 401 (a
 *   save); no permission → 403; nothing is shown or written either way;
 * - loaders and actions then read the person with `staffOf(context)` and
 *   `actorOf(context, failure)`; they check nothing themselves.
 *
 * When the database cannot check the session (an outage), a page shows
 * "We'll be right back" (503); a save reaches its action, which answers with
 * the form's own failure message (503), so the page keeps what was typed.
 */
import { createContext, type MiddlewareFunction } from "react-router";
import { isWriteMethod } from "~/lib/http";
import { staffActor, type Actor } from "../db/audit";
import { requireStaff, type StaffSession } from "../auth/staff-session";
import { log } from "../log";
import { can, FORBIDDEN_MESSAGE, type Permission } from "../auth/roles";
import { requestInfo, routeHandle, servicesContext, type RequestContext } from "../http/request-context";
import { refuse, type Refusal } from "../http/form-post";

/**
 * What the guard found: the person, or — for a save whose session has ended
 * or could not be checked — the answer the action gives instead (`actorOf`).
 */
type Outcome = { staff: StaffSession } | { refusal: Response; read: boolean };
const guardContext = createContext<Outcome | null>(null);

export const dashboardGuard: MiddlewareFunction<Response> = async ({ request, context, pattern }, next) => {
  const handle = routeHandle(context, pattern);
  const permission = handle?.permission;
  if (!permission) {
    log("error", "dashboard route declares no permission: refused", { pattern });
    throw new Response(FORBIDDEN_MESSAGE, { status: 403 });
  }
  let staff: StaffSession;
  try {
    staff = await requireStaff(request, permission === "signed-in" ? undefined : permission, {
      twoFactorSetup: handle.twoFactorSetup === true,
      services: context.get(servicesContext),
    });
  } catch (error) {
    // A save whose session ended (401) or could not be checked (503): its action answers in the form's own way
    // (keeping what was typed), through actorOf, before it writes anything. Every other refusal is final here.
    if (!(isWriteMethod(request.method) && error instanceof Response && (error.status === 401 || error.status === 503))) throw error;
    const outcome = { refusal: error, read: false };
    context.set(guardContext, outcome);
    const result = await next();
    if (!outcome.read) {
      log("error", "a dashboard action ran without asking who acts (actorOf): refused", { pattern });
      throw error;
    }
    return result;
  }
  context.set(guardContext, { staff });
  return next();
};

function outcomeOf(context: RequestContext): Outcome {
  const outcome = context.get(guardContext);
  if (!outcome) throw new Error("This route is not behind the dashboard guard (routes/admin/layout.tsx's middleware).");
  return outcome;
}

/** The signed-in staff member of a dashboard request (the guard has checked them). */
export function staffOf(context: RequestContext): StaffSession {
  const outcome = outcomeOf(context);
  if ("refusal" in outcome) throw outcome.refusal;
  return outcome.staff;
}

/**
 * The first line of every dashboard action: the person its writes are
 * recorded under (audit.ts). When the session could not be checked, the
 * form's own `failure` message with 503; when it has ended, the guard's 401
 * is thrown (the article forms turn it into "Sign in again" and keep the
 * text). Nothing is written in either case.
 *
 *     const actor = actorOf(context, MSG.updateError);
 *     if (isRefusal(actor)) return actor;
 */
export function actorOf(context: RequestContext, failure: string): Actor | Refusal {
  const outcome = outcomeOf(context);
  if ("refusal" in outcome) {
    outcome.read = true;
    if (outcome.refusal.status === 503) return refuse(503, failure);
    throw outcome.refusal;
  }
  return staffActor(outcome.staff, requestInfo(context).clientIp);
}

/**
 * For a part of a screen that needs more than the screen's own permission
 * (the Staff screen's "require two-factor sign-in for everyone": security):
 * 403 unless the person's role has it. What a role may do is still decided
 * in roles.ts.
 */
export function requirePermission(context: RequestContext, permission: Permission): StaffSession {
  const staff = staffOf(context);
  if (!can(staff.role, permission)) {
    log("warn", "refused by role", { role: staff.role, permission });
    throw new Response(FORBIDDEN_MESSAGE, { status: 403 });
  }
  return staff;
}

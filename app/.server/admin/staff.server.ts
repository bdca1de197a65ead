/**
 * The Staff screen's action (/dashboard/staff): one handler per intent of its
 * forms (invite, send again, withdraw, role, deactivate, reactivate, the
 * two-factor requirement). Each answers 400 with the message and what was
 * typed, or redirects back with a status message; a StaffError (a rule of
 * db/staff.ts) is shown as it is. Who may do what: roles.ts.
 */
import { data, redirect } from "react-router";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf, requirePermission, staffOf } from "~/.server/admin/guard.server";
import { isRefusal, readForm, type FailureData } from "~/.server/http/form-post";
import { setTwoFactorRequired } from "~/.server/db/settings";
import {
  changeRole,
  deactivateStaff,
  inviteStaff,
  reactivateStaff,
  resendInvitation,
  StaffError,
  withdrawInvitation,
} from "~/.server/db/staff";
import type { Actor } from "~/.server/db/audit";
import type { RequestContext } from "~/.server/http/request-context";
import { log } from "~/.server/log";
import { isRole, ROLE_LABELS } from "~/.server/auth/roles";
import type { StaffSession } from "~/.server/auth/staff-session";
import { mailStatus, sendInvitation } from "~/.server/auth/staff-mail";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import { inviteSchema } from "~/lib/forms/staff";

const PATH = "/dashboard/staff";
const STAFF_ERROR = "An error occurred: the staff account was not changed. Please try again later.";

export type StaffData = FailureData & { values?: { email: string; role: string } };

const ID = /^[A-Za-z0-9_-]{1,64}$/;

type IntentInput = { raw: ReturnType<typeof formValues>; id: string | null; actor: Actor; me: StaffSession; context: RequestContext };

function fail(text: string, status = 400, extra: Partial<StaffData> = {}) {
  return data<StaffData>({ status: { tone: "error", text }, ...extra }, { status });
}

async function done(text: string, tone: "success" | "error" = "success") {
  return redirect(PATH, { headers: await flashHeaders({ tone, text }) });
}

const intents: Record<string, (input: IntentInput) => Promise<Response | ReturnType<typeof fail>>> = {
  async invite({ raw, actor, me }) {
    const values = { email: String(raw.email ?? "").slice(0, 320), role: String(raw.role ?? "").slice(0, 20) };
    const parsed = inviteSchema.safeParse(raw);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error.issues);
      return fail(Object.keys(errors).length > 1 || errors.email?.endsWith("required.") ? MSG.missingFields : MSG.checkFields, 400, {
        errors,
        values,
      });
    }
    let invited;
    try {
      invited = await inviteStaff(parsed.data, actor, me.role);
    } catch (error) {
      if (error instanceof StaffError)
        return fail(error.message, error.status, { errors: error.field ? { [error.field]: error.message } : undefined, values });
      throw error;
    }
    const sent = await sendInvitation(
      parsed.data.email,
      parsed.data.role,
      invited.token,
      me.name && me.name !== "Staff" ? me.name : me.email,
    );
    const status = mailStatus(sent, `${parsed.data.email} has been invited as ${ROLE_LABELS[parsed.data.role].toLowerCase()}.`);
    return done(status.text, status.tone);
  },
  async resend({ id, actor, me }) {
    if (!id) return fail(MSG.unreadableForm);
    const again = await resendInvitation(id, actor, me.role);
    const status = mailStatus(
      await sendInvitation(again.email, again.role, again.token, me.email),
      `A new invitation for ${again.email} has been made; the earlier link no longer works.`,
    );
    return done(status.text, status.tone);
  },
  async withdraw({ id, actor, me }) {
    if (!id) return fail(MSG.unreadableForm);
    const email = await withdrawInvitation(id, actor, me.role);
    return done(`The invitation for ${email} has been withdrawn.`);
  },
  async role({ raw, id, actor, me }) {
    const role = raw.role;
    if (!id || !isRole(role)) return fail("Choose a role.", 400, { errors: { role: "Choose a role." } });
    const changed = await changeRole(id, role, actor, me.role);
    return done(
      changed.before === role
        ? `${changed.email} is already ${ROLE_LABELS[role].toLowerCase()}.`
        : `${changed.email} is now ${ROLE_LABELS[role].toLowerCase()}.`,
    );
  },
  async deactivate({ id, actor, me }) {
    if (!id) return fail(MSG.unreadableForm);
    const email = await deactivateStaff(id, actor, me.role);
    return done(`${email} has been deactivated and signed out everywhere.`);
  },
  async reactivate({ id, actor, me }) {
    if (!id) return fail(MSG.unreadableForm);
    const email = await reactivateStaff(id, actor, me.role);
    return done(`${email} has been reactivated and can sign in again.`);
  },
  async security({ raw, actor, me, context }) {
    // Owners only (roles.ts: "security"): 403 for anyone else, nothing written.
    requirePermission(context, "security");
    const on = raw.require_two_factor === "on";
    if (on && !me.twoFactor)
      return fail("Set up two-factor sign-in for your own account first (My account), then require it for everyone.", 409);
    await setTwoFactorRequired(on, actor);
    return done(
      on
        ? "Two-factor sign-in is now required for every staff account."
        : "Two-factor sign-in is no longer required (each person may still use it).",
    );
  },
};

export async function staffAction(request: Request, context: RequestContext) {
  const actor = actorOf(context, STAFF_ERROR);
  if (isRefusal(actor)) return actor;
  const me = staffOf(context);
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const raw = formValues(form);
  const intent = typeof raw.intent === "string" ? raw.intent : "";
  const id = typeof raw.id === "string" && ID.test(raw.id) ? raw.id : null;
  const handler = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
  if (!handler) return fail(MSG.unreadableForm);
  try {
    return await handler({ raw, id, actor, me, context });
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof StaffError) return fail(error.message, error.status);
    log("error", "staff change failed", { intent, error: (error as Error).message });
    return fail(STAFF_ERROR, 500);
  }
}

/**
 * /dashboard/account (every staff member, their own account): change the
 * password (asks the current one; ends the other sessions), two-factor
 * sign-in, passkeys, and the list of one's own sessions with "sign out
 * everywhere else".
 */
import { ScrollRegion } from "~/components/scroll-region";
import { KeyRound, LogOut, ShieldCheck, Trash2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/account";
import { addPasskey, listPasskeys, removePasskey } from "~/.server/admin/account.server";
import { accountAction, backToAccount } from "~/.server/admin/account-action.server";
import { checkNewPassword } from "~/.server/admin/password-form.server";
import type { FailureData } from "~/.server/http/form-post";
import { changeOwnPassword, checkCurrentPassword } from "~/.server/db/staff-passwords";
import { endOtherSessions, listOwnSessions } from "~/.server/db/staff-sessions";
import { signInBlocked } from "~/.server/auth/login-limits";
import { ROLE_LABELS } from "~/.server/auth/roles";
import { recordFailedSignIn } from "~/.server/auth/sign-in";
import { AdminPage } from "~/components/admin/admin-page";
import { focusFirstInvalid } from "~/components/admin/fields";
import { useFormKey } from "~/components/admin/form-key";
import { CurrentPasswordField, NewPasswordFields } from "~/components/admin/new-password-fields";
import { PasskeyButton } from "~/components/admin/passkey-button";
import { ColumnHeads } from "~/components/admin/column-heads";
import { btnDanger, btnPrimary, btnSecondary } from "~/components/admin/styles";
import { MSG } from "~/lib/forms/messages";
import { changePasswordSchema } from "~/lib/forms/password";
import { STAFF_TEXT } from "~/lib/forms/staff";
import { formatWhen } from "~/lib/activity";
import { describeBrowser } from "~/lib/user-agent";
import { requestInfo } from "~/.server/http/request-context";
import { staffOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "signed-in",
  nav: { label: "My account", text: "Your password, two-factor sign-in, passkeys and sessions.", order: 140, icon: "account" },
} satisfies RouteHandle;

const ACCOUNT_ERROR = "An error occurred: your account was not changed. Please try again later.";
const MAX_PASSKEY_ANSWER = 64 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  const [sessions, passkeys] = await Promise.all([listOwnSessions(staff.userId, staff.sessionToken), listPasskeys(request)]);
  return {
    name: staff.name,
    email: staff.email,
    role: ROLE_LABELS[staff.role],
    twoFactor: staff.twoFactor,
    passkeys: passkeys.map((p) => ({ ...p, created: p.createdAt ? formatWhen(p.createdAt) : "" })),
    sessions: sessions.map((s) => ({
      id: s.id,
      current: s.current,
      browser: describeBrowser(s.userAgent),
      userAgent: s.userAgent,
      ip: s.ip || "Unknown",
      lastSeen: formatWhen(s.lastSeen),
    })),
  };
}

type AccountData = FailureData & { form?: string };

export function action({ request, context }: Route.ActionArgs) {
  return accountAction({ request, context }, ACCOUNT_ERROR, "account change failed", async ({ actor, staff }, values) => {
    switch (values.intent) {
      case "password": {
        const checked = checkNewPassword(changePasswordSchema, values);
        if (!checked.ok)
          return data<AccountData>(
            { status: { tone: "error", text: MSG.checkFields }, errors: checked.errors, form: "password" },
            { status: 400 },
          );
        // A wrong current password counts like a failed sign-in (a stolen session cannot guess it freely),
        // and is recorded like one: a failed-sign-in entry, and a lockout when it reaches the limit.
        const blocked = await signInBlocked(staff.email, requestInfo(context).clientIp);
        if (blocked) return data<AccountData>({ status: { tone: "error", text: blocked }, form: "password" }, { status: 429 });
        if (!(await checkCurrentPassword(staff.userId, checked.data.current))) {
          await recordFailedSignIn(staff.email, requestInfo(context).clientIp, "current password (My account)");
          return data<AccountData>(
            {
              status: { tone: "error", text: "The current password is not correct." },
              errors: { current: "The current password is not correct." },
              form: "password",
            },
            { status: 400 },
          );
        }
        if (checked.data.current === checked.data.password) {
          return data<AccountData>(
            {
              status: { tone: "error", text: MSG.checkFields },
              errors: { password: "The new password must differ from the current one." },
              form: "password",
            },
            { status: 400 },
          );
        }
        const ended = await changeOwnPassword(staff, checked.data.password, requestInfo(context).clientIp);
        return backToAccount(
          `Your password has been changed${ended ? `; ${ended} other ${ended === 1 ? "session was" : "sessions were"} signed out` : ""}.`,
        );
      }
      case "sign-out-others": {
        const ended = await endOtherSessions(staff, requestInfo(context).clientIp);
        return backToAccount(
          ended
            ? `Signed out everywhere else (${ended} ${ended === 1 ? "session" : "sessions"}).`
            : "You were not signed in anywhere else.",
        );
      }
      case "add-passkey": {
        let answer: unknown = null;
        try {
          answer = typeof values.response === "string" && values.response.length <= MAX_PASSKEY_ANSWER ? JSON.parse(values.response) : null;
        } catch {
          answer = null;
        }
        const name =
          typeof values.name === "string" && values.name.trim() && !values.name.includes("\u0000")
            ? values.name.trim().slice(0, 60)
            : "Passkey";
        if (
          !answer ||
          typeof answer !== "object" ||
          Array.isArray(answer) ||
          !(await addPasskey(request, staff, actor, answer as Record<string, unknown>, name))
        ) {
          return data<AccountData>({ status: { tone: "error", text: STAFF_TEXT.passkeyAddFailure }, form: "passkey" }, { status: 400 });
        }
        return backToAccount("The passkey has been added. You can now sign in with it.");
      }
      case "remove-passkey": {
        const id = typeof values.id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(values.id) ? values.id : "";
        if (!id || !(await removePasskey(request, staff, actor, id))) {
          return data<AccountData>(
            { status: { tone: "error", text: "That passkey no longer exists. Reload the page." }, form: "passkey" },
            { status: 404 },
          );
        }
        return backToAccount("The passkey has been removed.");
      }
    }
  });
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData as AccountData | undefined;
  const key = useFormKey(actionData);
  const busy = useNavigation().state === "submitting";
  const passwordRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (failed?.errors && failed.form === "password") focusFirstInvalid(passwordRef.current);
  }, [failed]);
  const errors = failed?.form === "password" ? (failed.errors ?? {}) : {};
  const others = loaderData.sessions.filter((s) => !s.current).length;
  return (
    <AdminPage title="My account" back={{ to: "/dashboard", label: "Dashboard" }}>
      <p className="mb-8 text-muted">
        {loaderData.name} · {loaderData.email} · {loaderData.role}
      </p>

      <section aria-labelledby="password-title" className="mb-8 rounded border border-line bg-white p-5">
        <h2 id="password-title" className="text-xl font-semibold">
          Change password
        </h2>
        <p className="mt-1 text-muted">Your other sessions are signed out when the password changes.</p>
        <Form key={key} ref={passwordRef} method="post" noValidate aria-labelledby="password-title" className="mt-4 max-w-md space-y-5">
          <input type="hidden" name="intent" value="password" />
          <CurrentPasswordField error={errors.current} />
          <NewPasswordFields errors={errors} />
          <button type="submit" className={btnPrimary} disabled={busy}>
            CHANGE PASSWORD
          </button>
        </Form>
      </section>

      <section aria-labelledby="two-factor-title" className="mb-8 rounded border border-line bg-white p-5">
        <h2 id="two-factor-title" className="flex items-center gap-2 text-xl font-semibold">
          <ShieldCheck aria-hidden="true" className="size-5 text-accent" /> Two-factor sign-in
        </h2>
        <p className="mt-1">
          {loaderData.twoFactor
            ? "On: signing in with your password also asks for the code of your authenticator app."
            : "Off: anyone with your password can sign in. Turn it on with an authenticator app (for example on your phone)."}
        </p>
        <p className="mt-3">
          <Link to="/dashboard/account/two-factor" className={loaderData.twoFactor ? btnSecondary : btnPrimary}>
            {loaderData.twoFactor ? "Manage two-factor sign-in" : "Set up two-factor sign-in"}
          </Link>
        </p>
      </section>

      <section aria-labelledby="passkeys-title" className="mb-8 rounded border border-line bg-white p-5">
        <h2 id="passkeys-title" className="flex items-center gap-2 text-xl font-semibold">
          <KeyRound aria-hidden="true" className="size-5 text-accent" /> Passkeys
        </h2>
        <p className="mt-1 text-muted">
          A passkey signs you in with your device's fingerprint, face or PIN instead of a password and code.
        </p>
        {loaderData.passkeys.length ? (
          <ul className="mt-3 divide-y divide-line rounded border border-line" aria-label="Your passkeys">
            {loaderData.passkeys.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-2">
                <span>
                  <span className="font-semibold">{p.name}</span> <span className="text-sm text-muted">added {p.created}</span>
                </span>
                <Form method="post" aria-label={`Remove the passkey ${p.name}`}>
                  <input type="hidden" name="intent" value="remove-passkey" />
                  <input type="hidden" name="id" value={p.id} />
                  <button type="submit" className={btnDanger} disabled={busy} aria-label={`Remove the passkey ${p.name}`}>
                    <Trash2 aria-hidden="true" className="size-4" /> Remove
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3">You have no passkey yet.</p>
        )}
        <div className="mt-4 max-w-xs">
          <PasskeyButton
            optionsUrl="/dashboard/account/passkey-options"
            intent="add-passkey"
            label="Add a passkey"
            fields={{ name: `Passkey ${loaderData.passkeys.length + 1}` }}
            failure={STAFF_TEXT.passkeyAddFailure}
          />
        </div>
        <noscript>
          <p className="mt-3 text-muted">Adding a passkey needs JavaScript.</p>
        </noscript>
      </section>

      <section aria-labelledby="sessions-title" className="mb-8 rounded border border-line bg-white p-5">
        <h2 id="sessions-title" className="text-xl font-semibold">
          Where you are signed in
        </h2>
        <ScrollRegion className="mt-3 overflow-x-auto" label="Your active sessions">
          <table className="w-full text-left">
            <caption className="sr-only">Your active sessions</caption>
            <ColumnHeads names={["Browser", "Address", "Last seen"]} className="border-b border-line text-sm" cellClassName="py-2 pr-4" />
            <tbody className="divide-y divide-line">
              {loaderData.sessions.map((s) => (
                <tr key={s.id}>
                  <td className="py-2 pr-4" title={s.userAgent}>
                    {s.browser}
                    {s.current ? <strong className="ml-2 text-success">(this browser)</strong> : null}
                  </td>
                  <td className="py-2 pr-4">{s.ip}</td>
                  <td className="py-2 pr-4">{s.lastSeen}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        <Form method="post" aria-label="Sign out everywhere else" className="mt-4">
          <input type="hidden" name="intent" value="sign-out-others" />
          <button type="submit" className={btnSecondary} disabled={busy || others === 0}>
            <LogOut aria-hidden="true" className="size-4" /> Sign out everywhere else
          </button>
        </Form>
      </section>
    </AdminPage>
  );
}

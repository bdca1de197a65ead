/**
 * /dashboard/account/two-factor: set up two-factor sign-in with an
 * authenticator app (better-auth's two-factor plugin: TOTP, RFC 6238):
 * 1. the current password; 2. the QR code (an image, and the key as text) and
 * the first code to confirm; 3. the 10 single-use recovery codes, shown once.
 * When it is on: new recovery codes, or turn it off (not while an owner
 * requires it). Open even while two-factor sign-in is required and not set
 * up: this is where such a person is sent.
 */
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/account-two-factor";
import {
  confirmTwoFactor,
  disableTwoFactor,
  newRecoveryCodes,
  qrDataUrl,
  secretOf,
  startTwoFactor,
  TWO_FACTOR_MSG,
} from "~/.server/admin/account.server";
import { accountAction, backToAccount } from "~/.server/admin/account-action.server";
import type { FailureData } from "~/.server/http/form-post";
import { twoFactorRequired } from "~/.server/db/settings";
import { AdminPage } from "~/components/admin/admin-page";
import { CurrentPasswordField } from "~/components/admin/new-password-fields";
import { CodeField, focusFirstInvalid } from "~/components/admin/fields";
import { btnDanger, btnPrimary, linkClass } from "~/components/admin/styles";
import { staffOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "signed-in", twoFactorSetup: true } satisfies RouteHandle;

const PATH = "/dashboard/account/two-factor";
const TWO_FACTOR_ERROR = "An error occurred: two-factor sign-in was not changed. Please try again later.";

export async function loader({ context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  return { enabled: staff.twoFactor, required: await twoFactorRequired() };
}

type Step = { step: "confirm"; uri: string; qr: string; secret: string } | { step: "codes"; codes: string[] };
type TwoFactorData = FailureData & Partial<{ step: Step["step"]; uri: string; qr: string; secret: string; codes: string[] }>;

const OTPAUTH = /^otpauth:\/\/totp\/[^\s]{1,500}$/;

async function confirmStep(uri: string): Promise<Step> {
  return { step: "confirm", uri, qr: await qrDataUrl(uri), secret: secretOf(uri) };
}

export function action({ request, context }: Route.ActionArgs) {
  return accountAction({ request, context }, TWO_FACTOR_ERROR, "two-factor change failed", async ({ actor, staff }, values) => {
    const text = (name: string, max = 256) => (typeof values[name] === "string" ? values[name].slice(0, max) : "");
    const password = text("current");
    const needPassword = () =>
      data<TwoFactorData>(
        { status: { tone: "error", text: "Type your current password." }, errors: { current: "Current password is required." } },
        { status: 400 },
      );
    switch (values.intent) {
      case "start": {
        if (staff.twoFactor) return data<TwoFactorData>({ status: { tone: "error", text: TWO_FACTOR_MSG.alreadyOn } }, { status: 409 });
        if (!password || password.includes("\u0000")) return needPassword();
        const started = await startTwoFactor(request, staff, actor, password);
        if (!started.ok)
          return data<TwoFactorData>(
            { status: { tone: "error", text: started.message }, errors: started.field ? { current: started.message } : undefined },
            { status: 400 },
          );
        return data<TwoFactorData>({ status: { tone: "success", text: TWO_FACTOR_MSG.started }, ...(await confirmStep(started.uri)) });
      }
      case "confirm": {
        if (staff.twoFactor) return data<TwoFactorData>({ status: { tone: "error", text: TWO_FACTOR_MSG.alreadyOn } }, { status: 409 });
        // The key is shown again after a wrong code (it is the person's own, just shown); the code is checked against the stored one.
        const uri = OTPAUTH.test(text("uri", 600)) ? text("uri", 600) : "";
        const code = text("code", 20).replace(/\s+/g, "");
        if (!uri) return data<TwoFactorData>({ status: { tone: "error", text: TWO_FACTOR_MSG.restart } }, { status: 400 });
        if (!/^\d{6}$/.test(code)) {
          return data<TwoFactorData>(
            {
              status: { tone: "error", text: TWO_FACTOR_MSG.wrongCode },
              errors: { code: "Type the 6 digits your app shows." },
              ...(await confirmStep(uri)),
            },
            { status: 400 },
          );
        }
        const confirmed = await confirmTwoFactor(request, staff, actor, code);
        if (!confirmed.ok) {
          const restart = confirmed.message === TWO_FACTOR_MSG.restart;
          return data<TwoFactorData>(
            {
              status: { tone: "error", text: confirmed.message },
              errors: restart ? undefined : { code: confirmed.message },
              ...(restart ? {} : await confirmStep(uri)),
            },
            { status: 400 },
          );
        }
        return data<TwoFactorData>(
          { status: { tone: "success", text: TWO_FACTOR_MSG.enabled }, step: "codes", codes: confirmed.codes },
          { headers: confirmed.headers },
        );
      }
      case "codes": {
        if (!staff.twoFactor) return data<TwoFactorData>({ status: { tone: "error", text: TWO_FACTOR_MSG.restart } }, { status: 409 });
        if (!password) return needPassword();
        const result = await newRecoveryCodes(request, staff, actor, password);
        if (!result.ok)
          return data<TwoFactorData>(
            { status: { tone: "error", text: result.message }, errors: { current: result.message } },
            { status: 400 },
          );
        return data<TwoFactorData>({ status: { tone: "success", text: TWO_FACTOR_MSG.newCodes }, step: "codes", codes: result.codes });
      }
      case "disable": {
        if (!staff.twoFactor) return redirect(PATH);
        if (await twoFactorRequired())
          return data<TwoFactorData>({ status: { tone: "error", text: TWO_FACTOR_MSG.requiredOn } }, { status: 409 });
        if (!password) return needPassword();
        const result = await disableTwoFactor(request, staff, actor, password);
        if (!result.ok)
          return data<TwoFactorData>(
            { status: { tone: "error", text: result.message }, errors: { current: result.message } },
            { status: 400 },
          );
        return backToAccount(TWO_FACTOR_MSG.disabled, result.headers);
      }
    }
  });
}

/** The name of each password form (its landmark). */
const FORM_LABELS: Record<string, string> = {
  start: "Set up two-factor sign-in",
  codes: "New recovery codes",
  disable: "Turn off two-factor sign-in",
};

function PasswordForm({
  intent,
  label,
  danger,
  errors,
}: {
  intent: string;
  label: string;
  danger?: boolean;
  errors: Record<string, string>;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" noValidate aria-label={FORM_LABELS[intent] ?? label} className="mt-4 max-w-md space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <CurrentPasswordField id={`${intent}-current`} error={errors.current} />
      <button type="submit" className={danger ? btnDanger : btnPrimary} disabled={busy}>
        {label}
      </button>
    </Form>
  );
}

export default function AccountTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as TwoFactorData | undefined;
  const errors = answer?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer?.errors) focusFirstInvalid(ref.current as unknown as HTMLFormElement);
  }, [answer]);
  const confirm = answer?.step === "confirm" && answer.uri ? answer : null;
  const codes = answer?.step === "codes" ? (answer.codes ?? []) : null;
  return (
    <AdminPage title="Two-factor sign-in" back={{ to: "/dashboard/account", label: "My account" }}>
      <div ref={ref} className="max-w-2xl">
        {loaderData.required && !loaderData.enabled && !codes ? (
          <p className="mb-6 rounded border-l-4 border-accent bg-white p-4">
            Two-factor sign-in is required for every staff account on this site. Set it up to continue to the dashboard.
          </p>
        ) : null}
        {codes ? (
          <section aria-labelledby="codes-title" className="rounded border border-line bg-white p-5">
            <h2 id="codes-title" className="text-xl font-semibold">
              Your recovery codes
            </h2>
            <p className="mt-1">
              Each code signs you in once if you lose your authenticator app. Print them or keep them in a password manager: they are shown
              only now.
            </p>
            <ol className="mt-4 grid grid-cols-2 gap-2 font-mono text-lg" aria-label="Recovery codes" data-testid="recovery-codes">
              {codes.map((c) => (
                <li key={c} className="rounded border border-line bg-soft px-3 py-1">
                  {c}
                </li>
              ))}
            </ol>
            <p className="mt-6">
              <Link to="/dashboard" className={btnPrimary}>
                Continue to the dashboard
              </Link>
            </p>
          </section>
        ) : confirm ? (
          <section aria-labelledby="scan-title" className="rounded border border-line bg-white p-5">
            <h2 id="scan-title" className="text-xl font-semibold">
              Scan this code with your authenticator app
            </h2>
            <img
              src={confirm.qr}
              width={240}
              height={240}
              alt="QR code for your authenticator app (the same key is written below)"
              className="mt-4 border border-line"
            />
            <p className="mt-4">Cannot scan it? Add an account in the app by hand with this key (time-based, 6 digits):</p>
            <p className="mt-2 font-mono text-lg break-all" data-testid="totp-secret">
              {confirm.secret}
            </p>
            <Form method="post" noValidate aria-labelledby="scan-title" className="mt-6 max-w-md space-y-4">
              <input type="hidden" name="intent" value="confirm" />
              <input type="hidden" name="uri" value={confirm.uri} />
              <CodeField
                label="Code from the app"
                inputMode="numeric"
                maxLength={20}
                error={errors.code}
                hint="6 digits; a new code appears every 30 seconds."
              />
              <button type="submit" className={btnPrimary} disabled={busy}>
                TURN ON
              </button>
            </Form>
          </section>
        ) : loaderData.enabled ? (
          <>
            <p className="mb-6">Two-factor sign-in is on.</p>
            <section aria-labelledby="new-codes-title" className="mb-6 rounded border border-line bg-white p-5">
              <h2 id="new-codes-title" className="text-xl font-semibold">
                New recovery codes
              </h2>
              <p className="mt-1 text-muted">Makes 10 new codes; the old ones stop working.</p>
              <PasswordForm intent="codes" label="MAKE NEW CODES" errors={errors} />
            </section>
            {loaderData.required ? (
              <p className="text-muted">Two-factor sign-in is required on this site, so it cannot be turned off.</p>
            ) : (
              <section aria-labelledby="off-title" className="rounded border border-line bg-white p-5">
                <h2 id="off-title" className="text-xl font-semibold">
                  Turn off
                </h2>
                <PasswordForm intent="disable" label="TURN OFF TWO-FACTOR SIGN-IN" danger errors={errors} />
              </section>
            )}
          </>
        ) : (
          <section aria-labelledby="start-title" className="rounded border border-line bg-white p-5">
            <h2 id="start-title" className="text-xl font-semibold">
              Set up with an authenticator app
            </h2>
            <p className="mt-1">
              You need an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password). First
              confirm it is you:
            </p>
            <PasswordForm intent="start" label="CONTINUE" errors={errors} />
            <p className="mt-4">
              <Link to="/dashboard/account" className={linkClass}>
                Not now
              </Link>
            </p>
          </section>
        )}
      </div>
    </AdminPage>
  );
}

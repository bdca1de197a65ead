/**
 * /admin: the staff login. A signed-in visitor goes straight to the dashboard.
 * E-mail and password (then, for accounts with two-factor sign-in, the code
 * at /admin/two-factor), or a passkey (with JavaScript).
 */
import { useCallback, useState } from "react";
import { data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/login";
import { getStaff } from "~/.server/auth/staff-session";
import { readFlash } from "~/.server/admin/flash.server";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { log } from "~/.server/log";
import { passkeySignIn, signIn } from "~/.server/auth/sign-in";
import { AuthForm, AuthPage } from "~/components/admin/auth-page";
import { TextField } from "~/components/admin/fields";
import { PasskeyButton } from "~/components/admin/passkey-button";
import { AnnounceContext } from "~/components/admin/status";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { loginSchema, safeRedirect } from "~/lib/forms/login";
import { MSG, type Status } from "~/lib/forms/messages";
import { STAFF_TEXT } from "~/lib/forms/staff";
import { HYDRATE } from "~/lib/hydrate";
import { requestInfo, servicesContext } from "~/.server/http/request-context";

/** The sign-in page runs React in the browser (lib/hydrate.ts). */
export const handle = HYDRATE;

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export function meta() {
  return [{ title: "Staff login" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  // The database being down must not hide the form: then nobody counts as signed in.
  const staff = await getStaff(request, context.get(servicesContext)).catch(() => null);
  if (staff) throw redirect(redirectTo);
  const { status, headers } = await readFlash(request);
  return data({ redirectTo, flash: status }, { headers });
}

const SIGN_IN_UNAVAILABLE = "Sign-in is temporarily unavailable. Please try again in a moment.";
/** A passkey answer is a few kilobytes. */
const MAX_PASSKEY_ANSWER = 64 * 1024;

type LoginData = { status?: Status; email?: string; errors?: Record<string, string> };

function withCookies(from: Headers, location: string) {
  const headers = new Headers();
  for (const cookie of from.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(location, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const values = formValues(form);
  if (values.intent === "passkey") {
    let answer: unknown;
    try {
      answer = typeof values.response === "string" && values.response.length <= MAX_PASSKEY_ANSWER ? JSON.parse(values.response) : null;
    } catch {
      answer = null;
    }
    if (!answer || typeof answer !== "object" || Array.isArray(answer)) {
      return data<LoginData>({ status: { tone: "error", text: STAFF_TEXT.passkeyFailure } }, { status: 400 });
    }
    const result = await passkeySignIn(request, answer as Record<string, unknown>, requestInfo(context).clientIp);
    if (result.ok !== true) {
      const message = result.ok === false ? result.message : STAFF_TEXT.passkeyFailure;
      return data<LoginData>({ status: { tone: "error", text: message } }, { status: result.ok === false ? result.status : 400 });
    }
    return withCookies(result.headers, safeRedirect(values.redirectTo));
  }
  const email = typeof values.email === "string" ? values.email.slice(0, 320) : "";
  const parsed = loginSchema.safeParse(values);
  if (!parsed.success) {
    return data<LoginData>(
      { status: { tone: "error", text: MSG.loginError }, email, errors: fieldErrors(parsed.error.issues) },
      { status: 400 },
    );
  }
  let result: Awaited<ReturnType<typeof signIn>>;
  try {
    result = await signIn(request, parsed.data.email, parsed.data.password, requestInfo(context).clientIp);
  } catch (error) {
    log("error", "sign-in unavailable", { error: (error as Error).message });
    return data<LoginData>(
      { status: { tone: "error", text: SIGN_IN_UNAVAILABLE }, email },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }
  if (result.ok === false) return data<LoginData>({ status: { tone: "error", text: result.message }, email }, { status: result.status });
  const target = safeRedirect(values.redirectTo);
  if (result.ok === "two-factor") return withCookies(result.headers, `/admin/two-factor?redirectTo=${encodeURIComponent(target)}`);
  return withCookies(result.headers, target);
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors = actionData?.errors ?? {};
  const [clientStatus, setClientStatus] = useState<Status | null>(null);
  const announce = useCallback((s: Status | null) => setClientStatus(s), []);
  const submitting = navigation.state === "submitting";
  const status = clientStatus ?? (submitting ? null : (actionData?.status ?? loaderData.flash));
  return (
    <AnnounceContext.Provider value={announce}>
      <AuthPage title="Staff login" status={status}>
        <AuthForm
          errors={actionData?.errors}
          submit="Login"
          link={{ to: "/admin/forgot-password", label: "Forgot password?" }}
          onSubmit={() => setClientStatus(null)}
        >
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <TextField
            name="email"
            label="Email"
            inputMode="email"
            autoComplete="username webauthn"
            required
            defaultValue={actionData && "email" in actionData ? actionData.email : ""}
            error={errors.email}
            maxLength={320}
          />
          <TextField
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            error={errors.password}
            maxLength={256}
          />
        </AuthForm>
        <div className="mt-4">
          <PasskeyButton
            optionsUrl="/admin/passkey"
            intent="passkey"
            label="Sign in with a passkey"
            fields={{ redirectTo: loaderData.redirectTo }}
            failure={STAFF_TEXT.passkeyFailure}
          />
        </div>
      </AuthPage>
    </AnnounceContext.Provider>
  );
}

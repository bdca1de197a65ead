/** /admin: the staff login. A signed-in visitor goes straight to the dashboard. */
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/login";
import { getStaff } from "~/.server/auth";
import { isRefusal, readForm } from "~/.server/admin/request.server";
import { log } from "~/.server/log";
import { signIn } from "~/.server/sign-in";
import { TextField } from "~/components/admin/fields";
import { StatusRegion } from "~/components/admin/status";
import { btnPrimary } from "~/components/admin/styles";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { loginSchema, safeRedirect } from "~/lib/forms/login";
import { MSG, type Status } from "~/lib/forms/messages";

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export function meta() {
  return [{ title: "Staff login" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  // The database being down must not hide the form: then nobody counts as signed in.
  const staff = await getStaff(request).catch(() => null);
  if (staff) throw redirect(redirectTo);
  return { redirectTo };
}

const SIGN_IN_UNAVAILABLE = "Sign-in is temporarily unavailable. Please try again in a moment.";

type LoginData = { status?: Status; email?: string; errors?: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const values = formValues(form);
  const email = typeof values.email === "string" ? values.email.slice(0, 320) : "";
  const parsed = loginSchema.safeParse(values);
  if (!parsed.success) {
    return data<LoginData>({ status: { tone: "error", text: MSG.loginError }, email, errors: fieldErrors(parsed.error.issues) }, { status: 400 });
  }
  let result: Awaited<ReturnType<typeof signIn>>;
  try {
    result = await signIn(request, parsed.data.email, parsed.data.password, context.clientIp);
  } catch (error) {
    log("error", "sign-in unavailable", { error: (error as Error).message });
    return data<LoginData>({ status: { tone: "error", text: SIGN_IN_UNAVAILABLE }, email }, { status: 503, headers: { "Retry-After": "5" } });
  }
  if (!result.ok) return data<LoginData>({ status: { tone: "error", text: result.message }, email }, { status: result.status });
  const headers = new Headers();
  for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(safeRedirect(values.redirectTo), { headers });
}

export default function Login({ loaderData, actionData: raw }: Route.ComponentProps) {
  const actionData = raw as LoginData | undefined;
  const navigation = useNavigation();
  const errors = actionData?.errors ?? {};
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-ground px-4 py-16">
      <div className="w-full max-w-md">
        <h1 className="text-center text-3xl font-semibold">Staff login</h1>
        <div className="mt-6">
          <StatusRegion status={navigation.state === "submitting" ? null : actionData?.status} />
        </div>
        <Form method="post" className="mt-4 space-y-5 rounded border border-line bg-white p-6 shadow-sm">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <TextField name="email" label="Email" type="email" autoComplete="username" required defaultValue={actionData?.email ?? ""} error={errors.email} maxLength={320} />
          <TextField name="password" label="Password" type="password" autoComplete="current-password" required error={errors.password} maxLength={256} />
          <button type="submit" className={`${btnPrimary} w-full`} disabled={navigation.state === "submitting"}>
            Login
          </button>
        </Form>
      </div>
    </main>
  );
}

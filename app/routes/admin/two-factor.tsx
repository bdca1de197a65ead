/** /admin/two-factor: the second step of signing in, for accounts with two-factor sign-in: the app's code or a recovery code. */
import { data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/two-factor";
import { flashHeaders } from "~/.server/admin/flash.server";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { CODE_EXPIRED, pendingTwoFactor, verifySecondFactor } from "~/.server/auth/sign-in";
import { AuthForm, AuthPage } from "~/components/admin/auth-page";
import { CodeField } from "~/components/admin/fields";
import { formValues } from "~/lib/forms/form-data";
import { safeRedirect } from "~/lib/forms/login";
import type { Status } from "~/lib/forms/messages";
import { HYDRATE } from "~/lib/hydrate";
import { requestInfo } from "~/.server/http/request-context";

/** A staff page: React runs in the browser, as on the sign-in page (lib/hydrate.ts). */
export const handle = HYDRATE;

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export function meta() {
  return [{ title: "Two-factor sign-in" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (!(await pendingTwoFactor(request))) {
    throw redirect("/admin", { headers: await flashHeaders({ tone: "error", text: CODE_EXPIRED }) });
  }
  return { redirectTo };
}

const CODE_REQUIRED = "Type the 6-digit code from your authenticator app, or a recovery code.";

type CodeData = { status: Status; errors?: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const values = formValues(form);
  const code = typeof values.code === "string" ? values.code.trim() : "";
  if (!code || code.length > 40 || code.includes("\u0000")) {
    return data<CodeData>({ status: { tone: "error", text: CODE_REQUIRED }, errors: { code: CODE_REQUIRED } }, { status: 400 });
  }
  const result = await verifySecondFactor(request, code, requestInfo(context).clientIp);
  if (!result.ok) {
    if (result.restart) throw redirect("/admin", { headers: await flashHeaders({ tone: "error", text: result.message }) });
    return data<CodeData>({ status: { tone: "error", text: result.message }, errors: { code: result.message } }, { status: result.status });
  }
  const headers = new Headers();
  for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(safeRedirect(values.redirectTo), { headers });
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const failed = actionData as CodeData | undefined;
  return (
    <AuthPage title="Two-factor sign-in" status={submitting ? null : failed?.status}>
      <AuthForm errors={failed?.errors} submit="Verify" link={{ to: "/admin", label: "Start again" }}>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <CodeField
          label="Authentication code"
          maxLength={40}
          error={failed?.errors?.code}
          hint="The 6-digit code your authenticator app shows now. Lost your phone? Type one of your recovery codes instead."
        />
      </AuthForm>
    </AuthPage>
  );
}

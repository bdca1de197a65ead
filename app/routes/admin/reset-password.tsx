/** /admin/reset-password/:token: the e-mailed link (1 hour, single use) opens a form to choose a new password. */
import { data, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { flashHeaders } from "~/.server/admin/flash.server";
import { checkNewPassword } from "~/.server/admin/password-form.server";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { checkLink, completePasswordReset } from "~/.server/db/staff-links";
import { log } from "~/.server/log";
import { authCard, AuthForm, AuthPage } from "~/components/admin/auth-page";
import { NewPasswordFields } from "~/components/admin/new-password-fields";
import { btnPrimary, linkClass } from "~/components/admin/styles";
import { formValues } from "~/lib/forms/form-data";
import { MSG, type Status } from "~/lib/forms/messages";
import { setPasswordSchema } from "~/lib/forms/password";
import { STAFF_TEXT } from "~/lib/forms/staff";
import { HYDRATE } from "~/lib/hydrate";
import { requestInfo } from "~/.server/http/request-context";

/** A staff page: React runs in the browser, as on the sign-in page (lib/hydrate.ts). */
export const handle = HYDRATE;

export function headers() {
  // The token is in the address: never stored, never sent to another site as a referrer ("no-referrer" would make the
  // browser send "Origin: null" with the form, which the cross-site check refuses).
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

export function meta() {
  return [{ title: "Choose a new password" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ params }: Route.LoaderArgs) {
  const link = await checkLink("reset", params.token ?? "");
  if (link.state === "valid") return { state: "valid" as const, email: link.email };
  return { state: link.state, email: "" };
}

type ResetData = { status: Status; errors?: Record<string, string>; state?: "expired" | "invalid" };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const checked = checkNewPassword(setPasswordSchema, formValues(form));
  if (!checked.ok) return data<ResetData>({ status: { tone: "error", text: MSG.checkFields }, errors: checked.errors }, { status: 400 });
  let done;
  try {
    const link = await checkLink("reset", params.token ?? "");
    if (link.state !== "valid") {
      return data<ResetData>(
        {
          status: { tone: "error", text: link.state === "expired" ? STAFF_TEXT.resetExpired : STAFF_TEXT.resetInvalid },
          state: link.state,
        },
        { status: 410 },
      );
    }
    done = await completePasswordReset(params.token ?? "", checked.data.password, requestInfo(context).clientIp);
  } catch (error) {
    log("error", "password reset failed", { error: (error as Error).message });
    return data<ResetData>({ status: { tone: "error", text: MSG.updateError } }, { status: 503 });
  }
  if (!done) return data<ResetData>({ status: { tone: "error", text: STAFF_TEXT.resetInvalid }, state: "invalid" }, { status: 410 });
  return redirect("/admin", { headers: await flashHeaders({ tone: "success", text: STAFF_TEXT.resetDone }) });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const failed = actionData as ResetData | undefined;
  const state = failed?.state ?? loaderData.state;
  const message = state === "expired" ? STAFF_TEXT.resetExpired : state === "invalid" ? STAFF_TEXT.resetInvalid : null;
  return (
    <AuthPage
      title="Choose a new password"
      status={submitting ? null : (failed?.status ?? (message ? { tone: "error", text: message } : null))}
    >
      {state === "valid" ? (
        <AuthForm errors={failed?.errors} submit="Set the new password">
          <p className="text-muted">
            For <strong className="text-ink">{loaderData.email}</strong>. Every session of this account will be signed out.
          </p>
          <NewPasswordFields errors={failed?.errors ?? {}} />
        </AuthForm>
      ) : (
        <div className={authCard}>
          <p>{message}</p>
          <p>
            <Link to="/admin/forgot-password" className={btnPrimary}>
              Ask for a new link
            </Link>
          </p>
          <p>
            <Link to="/admin" className={linkClass}>
              Back to the login
            </Link>
          </p>
        </div>
      )}
    </AuthPage>
  );
}

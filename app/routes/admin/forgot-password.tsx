/** /admin/forgot-password: asks for a reset link. The answer is the same sentence whether or not the account exists. */
import { data, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { requestPasswordReset } from "~/.server/db/staff-links";
import { log } from "~/.server/log";
import { addressBlocked } from "~/.server/auth/login-limits";
import { sendPasswordReset } from "~/.server/auth/staff-mail";
import { AuthForm, AuthPage } from "~/components/admin/auth-page";
import { TextField } from "~/components/admin/fields";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import type { Status } from "~/lib/forms/messages";
import { forgotSchema, STAFF_TEXT } from "~/lib/forms/staff";
import { HYDRATE } from "~/lib/hydrate";
import { requestInfo } from "~/.server/http/request-context";

/** A staff page: React runs in the browser, as on the sign-in page (lib/hydrate.ts). */
export const handle = HYDRATE;

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export function meta() {
  return [{ title: "Forgot password" }, { name: "robots", content: "noindex, nofollow" }];
}

export function loader() {
  return null;
}

type ForgotData = { status: Status; email?: string; errors?: Record<string, string>; sent?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const values = formValues(form);
  const email = typeof values.email === "string" ? values.email.slice(0, 320) : "";
  const parsed = forgotSchema.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues);
    return data<ForgotData>(
      { status: { tone: "error", text: errors.email ?? "Type your e-mail address." }, email, errors },
      { status: 400 },
    );
  }
  try {
    if (!(await addressBlocked(requestInfo(context).clientIp))) {
      const link = await requestPasswordReset(parsed.data.email, requestInfo(context).clientIp);
      // Sent without waiting: the answer takes as long whether or not the account exists (the outbox keeps the message).
      if (link)
        void sendPasswordReset(link.email, link.token).catch((error) =>
          log("error", "reset e-mail not sent", { error: (error as Error).message }),
        );
    }
  } catch (error) {
    log("error", "password reset unavailable", { error: (error as Error).message });
    return data<ForgotData>(
      { status: { tone: "error", text: "Password reset is temporarily unavailable. Please try again in a moment." }, email },
      { status: 503 },
    );
  }
  return data<ForgotData>({ status: { tone: "success", text: STAFF_TEXT.forgotAnswer }, sent: true });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const answer = actionData as ForgotData | undefined;
  return (
    <AuthPage title="Forgot password" status={submitting ? null : answer?.status}>
      <AuthForm errors={answer?.errors} submit="Send the link" link={{ to: "/admin", label: "Back to the login" }}>
        <p className="text-muted">Type the e-mail address of your staff account. We will send it a link to choose a new password.</p>
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          defaultValue={answer?.email ?? ""}
          error={answer?.errors?.email}
          maxLength={320}
        />
      </AuthForm>
    </AuthPage>
  );
}

/**
 * /admin/invitation/:token: the e-mailed invitation (72 hours, single use):
 * the invited person gives their name and chooses a password. An expired
 * invitation can ask for a new one, sent to the same address.
 */
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/invitation";
import { flashHeaders } from "~/.server/admin/flash.server";
import { checkNewPassword } from "~/.server/admin/password-form.server";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { acceptInvitation, checkLink, renewExpiredInvitation } from "~/.server/db/staff-links";
import { log } from "~/.server/log";
import { ROLE_LABELS } from "~/.server/auth/roles";
import { mailStatus, sendInvitation } from "~/.server/auth/staff-mail";
import { authCard, AuthForm, AuthPage } from "~/components/admin/auth-page";
import { TextField } from "~/components/admin/fields";
import { NewPasswordFields } from "~/components/admin/new-password-fields";
import { btnPrimary, linkClass } from "~/components/admin/styles";
import { formValues } from "~/lib/forms/form-data";
import { MSG, type Status } from "~/lib/forms/messages";
import { invitationSchema } from "~/lib/forms/password";
import { STAFF_TEXT } from "~/lib/forms/staff";
import { HYDRATE } from "~/lib/hydrate";
import { requestInfo } from "~/.server/http/request-context";

/** A staff page: React runs in the browser, as on the sign-in page (lib/hydrate.ts). */
export const handle = HYDRATE;

export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

export function meta() {
  return [{ title: "Accept your invitation" }, { name: "robots", content: "noindex, nofollow" }];
}

type State = "valid" | "expired" | "invalid" | "renewed";

export async function loader({ params }: Route.LoaderArgs) {
  const link = await checkLink("invitation", params.token ?? "");
  if (link.state === "valid") return { state: "valid" as State, email: link.email, role: ROLE_LABELS[link.role] };
  return { state: link.state as State, email: "", role: "" };
}

type InvitationData = { status: Status; errors?: Record<string, string>; state?: State; name?: string };

const messageOf = (state: State) =>
  state === "expired"
    ? STAFF_TEXT.invitationExpired
    : state === "invalid"
      ? STAFF_TEXT.invitationInvalid
      : state === "renewed"
        ? STAFF_TEXT.invitationRenewed
        : null;

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const values = formValues(form);
  const token = params.token ?? "";
  try {
    if (values.intent === "renew") {
      const renewed = await renewExpiredInvitation(token, requestInfo(context).clientIp);
      if (!renewed)
        return data<InvitationData>({ status: { tone: "error", text: STAFF_TEXT.invitationInvalid }, state: "invalid" }, { status: 410 });
      const sent = await sendInvitation(renewed.email, renewed.role, renewed.token, "The site");
      // Like the Staff screen's invitations: a refused or unreachable SMTP server is said (the message stays in the Outbox to retry).
      if (sent.status === "failed") log("error", "renewed invitation not sent: kept in the outbox", { id: sent.id });
      return data<InvitationData>({ status: mailStatus(sent, STAFF_TEXT.invitationRenewed), state: "renewed" });
    }
    const name = typeof values.name === "string" ? values.name.slice(0, 200) : "";
    const checked = checkNewPassword(invitationSchema, values);
    if (!checked.ok)
      return data<InvitationData>({ status: { tone: "error", text: MSG.checkFields }, errors: checked.errors, name }, { status: 400 });
    const link = await checkLink("invitation", token);
    if (link.state !== "valid")
      return data<InvitationData>({ status: { tone: "error", text: messageOf(link.state)! }, state: link.state }, { status: 410 });
    const done = await acceptInvitation(token, { name: checked.data.name, password: checked.data.password }, requestInfo(context).clientIp);
    if (!done)
      return data<InvitationData>({ status: { tone: "error", text: STAFF_TEXT.invitationInvalid }, state: "invalid" }, { status: 410 });
  } catch (error) {
    log("error", "invitation failed", { error: (error as Error).message });
    return data<InvitationData>({ status: { tone: "error", text: MSG.updateError } }, { status: 503 });
  }
  return redirect("/admin", { headers: await flashHeaders({ tone: "success", text: STAFF_TEXT.invitationAccepted }) });
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const answer = actionData as InvitationData | undefined;
  const state = answer?.state ?? loaderData.state;
  const message = messageOf(state);
  return (
    <AuthPage
      title="Accept your invitation"
      status={submitting ? null : (answer?.status ?? (message ? { tone: "error", text: message } : null))}
    >
      {state === "valid" ? (
        <AuthForm errors={answer?.errors} submit="Set my password">
          <p className="text-muted">
            You are invited as <strong className="text-ink">{loaderData.role.toLowerCase()}</strong> with the address{" "}
            <strong className="text-ink">{loaderData.email}</strong>.
          </p>
          <input type="hidden" name="intent" value="accept" />
          <TextField
            name="name"
            label="Your name"
            required
            autoComplete="name"
            maxLength={100}
            defaultValue={answer?.name ?? ""}
            error={answer?.errors?.name}
          />
          <NewPasswordFields errors={answer?.errors ?? {}} label="Choose a password" />
        </AuthForm>
      ) : (
        <div className={authCard}>
          <p>{message}</p>
          {state === "expired" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="renew" />
              <button type="submit" className={btnPrimary} disabled={submitting}>
                Send me a new invitation
              </button>
            </Form>
          ) : null}
          <p>
            <Link to="/admin" className={linkClass}>
              Go to the login
            </Link>
          </p>
        </div>
      )}
    </AuthPage>
  );
}

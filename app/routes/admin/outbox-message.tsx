/** /dashboard/outbox/:id (owners): one e-mail as it was made (its plain-text part), with "send again" while it is not sent. */
import { Send } from "lucide-react";
import { useNavigation } from "react-router";
import type { Route } from "./+types/outbox-message";
import { resendAction } from "~/.server/admin/outbox.server";
import { parseId } from "~/.server/http/form-post";
import { getOutboxMessage } from "~/.server/db/outbox";
import { AdminPage } from "~/components/admin/admin-page";
import { IntentButton } from "~/components/admin/intent-button";
import { formatWhen, OUTBOX_STATUS_TEXT as STATUS_TEXT } from "~/lib/activity";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "outbox" } satisfies RouteHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const message = id ? await getOutboxMessage(id) : null;
  if (!message) throw new Response("No such message", { status: 404 });
  return {
    id: message.id,
    subject: message.subject,
    to: message.to_address,
    kind: message.kind,
    status: message.status,
    text: message.text_body,
    attempts: message.attempts,
    lastError: message.last_error,
    created: formatWhen(message.created_at),
    sent: message.sent_at ? formatWhen(message.sent_at) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return resendAction(request, context, (id) => `/dashboard/outbox/${id}`);
}

export default function OutboxMessage({ loaderData: m }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <AdminPage title={m.subject} back={{ to: "/dashboard/outbox", label: "Outbox" }}>
      <dl className="mb-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="font-semibold">To</dt>
        <dd className="break-all">{m.to}</dd>
        <dt className="font-semibold">Made</dt>
        <dd>{m.created}</dd>
        <dt className="font-semibold">Status</dt>
        <dd>
          {STATUS_TEXT[m.status] ?? m.status}
          {m.sent ? ` ${m.sent}` : ""}
          {m.status === "failed" && m.lastError ? ` (${m.lastError}; ${m.attempts} ${m.attempts === 1 ? "try" : "tries"})` : ""}
        </dd>
      </dl>
      {m.status === "failed" || m.status === "outbox" ? (
        <IntentButton intent="resend" id={m.id} formLabel="Send again" busy={busy} className="mb-6">
          <Send aria-hidden="true" className="size-4" /> Send again
        </IntentButton>
      ) : null}
      <h2 className="mb-2 text-xl font-semibold">Message</h2>
      <pre className="rounded border border-line bg-white p-4 font-sans whitespace-pre-wrap break-words" data-testid="mail-text">
        {m.text}
      </pre>
    </AdminPage>
  );
}

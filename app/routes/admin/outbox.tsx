/**
 * /dashboard/outbox (owners): every e-mail the site made, newest first: kept
 * (no SMTP_URL), sent, or failed and waiting to be retried. Invitation and
 * reset links are in here while no e-mail server is set up, which is why only
 * owners may read it.
 */
import { ScrollRegion } from "~/components/scroll-region";
import { Send } from "lucide-react";
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/outbox";
import { resendAction } from "~/.server/admin/outbox.server";
import { listOutbox } from "~/.server/db/outbox";
import { smtpConfigured } from "~/.server/mail/mail";
import { AdminPage } from "~/components/admin/admin-page";
import { IntentButton } from "~/components/admin/intent-button";
import { ColumnHeads } from "~/components/admin/column-heads";
import { linkClass } from "~/components/admin/styles";
import { Pagination } from "~/components/public/pagination";
import { parsePage } from "~/lib/pagination";
import { formatWhen, OUTBOX_STATUS_TEXT as STATUS_TEXT } from "~/lib/activity";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "outbox",
  nav: { label: "Outbox", text: "The e-mails the site has made: read them, send them again.", order: 130, icon: "outbox" },
} satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const result = await listOutbox(parsePage(new URL(request.url).searchParams.get("page")));
  return {
    smtp: smtpConfigured(),
    ...result,
    rows: result.rows.map((r) => ({
      ...r,
      created: formatWhen(r.created_at),
      next: r.next_attempt_at ? formatWhen(r.next_attempt_at) : null,
      created_at: undefined,
      next_attempt_at: undefined,
      sent_at: undefined,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return resendAction(request, context, () => "/dashboard/outbox");
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const { rows, page, pageCount } = loaderData;
  return (
    <AdminPage title="Outbox" back={{ to: "/dashboard", label: "Dashboard" }}>
      <p className="mb-6 text-muted">
        {loaderData.smtp
          ? "Every e-mail the site sends is kept here first. Messages the e-mail server could not take for now are tried again automatically (after 30 seconds, then 1, 2, 4… up to 30 minutes apart, six tries in all); one it refused for good (an address that does not exist) is not."
          : "No e-mail server is set up (SMTP_URL), so nothing is sent: every message is kept here. Open one to read it and pass its link on yourself."}
      </p>
      {rows.length === 0 ? (
        <p className="py-8 text-center text-muted">No e-mail yet.</p>
      ) : (
        <ScrollRegion className="overflow-x-auto rounded border border-line bg-white" label="E-mails">
          <table className="w-full text-left">
            <caption className="sr-only">E-mails, newest first</caption>
            <ColumnHeads names={["Subject", "To", "Made", "Status", "Actions"]} />
            <tbody className="divide-y divide-line">
              {rows.map((m) => (
                <tr key={m.id} className="align-top">
                  <th scope="row" className="min-w-48 px-4 py-3 font-normal">
                    <Link to={`/dashboard/outbox/${m.id}`} className={linkClass}>
                      {m.subject}
                    </Link>
                  </th>
                  <td className="min-w-48 px-4 py-3 wrap-anywhere">{m.to}</td>
                  <td className="px-4 py-3 text-sm">{m.created}</td>
                  <td className="px-4 py-3 text-sm">
                    <span className="font-semibold">{STATUS_TEXT[m.status] ?? m.status}</span>
                    {m.status === "failed" && m.last_error ? <span className="block text-muted">{m.last_error}</span> : null}
                    {m.status === "failed" && m.next ? <span className="block text-muted">Next try {m.next}</span> : null}
                  </td>
                  <td className="px-4 py-3">
                    {m.status === "failed" || m.status === "outbox" ? (
                      <IntentButton
                        intent="resend"
                        id={m.id}
                        formLabel={`Send “${m.subject}” to ${m.to} (message #${m.id}) again`}
                        buttonLabel={`Send again: “${m.subject}” to ${m.to} (message #${m.id})`}
                        busy={busy}
                      >
                        <Send aria-hidden="true" className="size-4" /> Send again
                      </IntentButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <Pagination page={page} pageCount={pageCount} href={(p) => `/dashboard/outbox${p > 1 ? `?page=${p}` : ""}`} />
    </AdminPage>
  );
}

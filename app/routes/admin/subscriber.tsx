/**
 * /dashboard/subscribers/:id: one subscriber and the full record of their
 * consent (each request, confirmation, change, withdrawal, bounce, with the
 * wording, its version and the form's address). Owners and admins
 * ("subscribers") record a withdrawal asked for by e-mail or telephone;
 * owners ("subscriber-erase") erase the person on request, leaving only a
 * hash of the address on the suppression list. Both are recorded in Activity.
 */
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/subscriber";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf, requirePermission, staffOf } from "~/.server/admin/guard.server";
import { isRefusal, parseId, readForm, type FailureData } from "~/.server/http/form-post";
import { consentHistory, eraseSubscriber, getSubscriber, subscriberLabel, withdrawConsent } from "~/.server/db/subscribers";
import { can } from "~/.server/auth/roles";
import { AdminPage } from "~/components/admin/admin-page";
import { btnDanger, btnSecondary } from "~/components/admin/styles";
import { articleDateText, staffDateTime } from "~/lib/dates";
import { formText } from "~/lib/forms/form-data";
import { SUBSCRIBER_STATUS_LABELS, topicList, type SubscriberStatus } from "~/lib/forms/subscribe";
import { MSG } from "~/lib/forms/messages";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "subscribers" } satisfies RouteHandle;

export const SUBSCRIBER_MSG = {
  withdrawn: "The withdrawal is recorded: nothing more will be sent to this address.",
  erased: "The subscriber is erased. Only a hash of the address stays, so that it is never mailed again.",
  confirmErase: "Tick the box to confirm that the person asked to be erased.",
  failed: MSG.updateError,
  notFound: "This subscriber no longer exists.",
} as const;

const EVENT_LABELS: Record<string, string> = {
  requested: "Asked to subscribe (web form)",
  imported: "Imported",
  confirmed: "Confirmed",
  "topics-changed": "Changed topics",
  withdrawn: "Withdrew consent",
  bounced: "Address bounced",
};

export function meta() {
  return [{ title: "Subscriber | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const subscriber = id ? await getSubscriber(id) : undefined;
  if (!subscriber) throw new Response("Not found", { status: 404 });
  const history = await consentHistory(subscriber.id);
  return {
    canErase: can(staffOf(context).role, "subscriber-erase"),
    subscriber: {
      id: subscriber.id,
      label: subscriberLabel(subscriber.id),
      email: subscriber.email,
      status: subscriber.status as SubscriberStatus,
      topics: topicList(subscriber.topics),
      source: subscriber.source,
      created: staffDateTime(subscriber.created_at),
      confirmed: subscriber.confirmed_at ? staffDateTime(subscriber.confirmed_at) : null,
      withdrawn: subscriber.withdrawn_at ? staffDateTime(subscriber.withdrawn_at) : null,
      consentKind: subscriber.consent_kind === "implied" ? ("implied" as const) : ("express" as const),
      consentEnds: subscriber.consent_expires_at ? articleDateText(subscriber.consent_expires_at, "UTC") : null,
      consentEnded: !!subscriber.consent_expires_at && subscriber.consent_expires_at.getTime() <= Date.now(),
      consentRequested: subscriber.consent_requested_at ? staffDateTime(subscriber.consent_requested_at) : null,
    },
    history: history.map((h) => ({
      id: h.id,
      event: EVENT_LABELS[h.event] ?? h.event,
      at: staffDateTime(h.at),
      topics: topicList(h.topics),
      wording: h.wording,
      version: h.wording_version,
      formUrl: h.form_url,
      source: h.source,
      evidence: h.consent_kind
        ? [
            `${h.consent_kind === "implied" ? `Implied consent (${h.implied_basis})` : "Express consent"}`,
            h.consent_date ? `of ${articleDateText(h.consent_date, "UTC")}` : "",
            h.expires_at ? `, ending ${articleDateText(h.expires_at, "UTC")}` : "",
          ].join(" ")
        : null,
    })),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(context, SUBSCRIBER_MSG.failed);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = parseId(params.id);
  if (!id) return data<FailureData>({ status: { tone: "error", text: SUBSCRIBER_MSG.notFound } }, { status: 404 });
  if (formText(form, "intent") === "erase") {
    requirePermission(context, "subscriber-erase");
    if (formText(form, "confirm") !== "yes")
      return data<FailureData>({ status: { tone: "error", text: SUBSCRIBER_MSG.confirmErase } }, { status: 400 });
    if (!(await eraseSubscriber(id, actor)))
      return data<FailureData>({ status: { tone: "error", text: SUBSCRIBER_MSG.notFound } }, { status: 404 });
    return redirect("/dashboard/subscribers", { headers: await flashHeaders({ tone: "success", text: SUBSCRIBER_MSG.erased }) });
  }
  if (formText(form, "intent") === "withdraw") {
    await withdrawConsent(id, "staff", new Date(), actor);
    return redirect(`/dashboard/subscribers/${id}`, { headers: await flashHeaders({ tone: "success", text: SUBSCRIBER_MSG.withdrawn }) });
  }
  return data<FailureData>({ status: { tone: "error", text: SUBSCRIBER_MSG.failed } }, { status: 400 });
}

export default function SubscriberScreen({ loaderData }: Route.ComponentProps) {
  const { subscriber: s, history, canErase } = loaderData;
  return (
    <AdminPage title={s.email} back={{ to: "/dashboard/subscribers", label: "Subscribers" }}>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold">Status</dt>
        <dd>{SUBSCRIBER_STATUS_LABELS[s.status]}</dd>
        <dt className="font-semibold">Topics</dt>
        <dd>{s.topics || "None"}</dd>
        <dt className="font-semibold">How</dt>
        <dd>{s.source === "import" ? "Imported by staff, with evidence of consent" : "The website's form"}</dd>
        <dt className="font-semibold">Consent</dt>
        <dd data-consent={s.consentKind}>
          {s.consentKind === "express"
            ? "Express"
            : s.consentEnded
              ? `Implied; ended on ${s.consentEnds}: not mailed until the person confirms`
              : `Implied, until ${s.consentEnds}: not mailed after that unless the person confirms`}
        </dd>
        {s.consentRequested ? (
          <>
            <dt className="font-semibold">Asked for consent</dt>
            <dd>{s.consentRequested}</dd>
          </>
        ) : null}
        <dt className="font-semibold">First request</dt>
        <dd>{s.created}</dd>
        <dt className="font-semibold">Confirmed</dt>
        <dd>{s.confirmed ?? "Not confirmed"}</dd>
        {s.withdrawn ? (
          <>
            <dt className="font-semibold">Withdrawn</dt>
            <dd>{s.withdrawn}</dd>
          </>
        ) : null}
      </dl>
      <h2 className="mt-10 text-xl font-semibold">Consent history</h2>
      <ol className="mt-3 divide-y divide-line rounded border border-line bg-white">
        {history.map((h) => (
          <li key={h.id} className="px-4 py-3">
            <p className="font-semibold">
              {h.event} <span className="font-normal text-muted">· {h.at}</span>
            </p>
            {h.evidence ? <p className="text-sm">{h.evidence.replace(" ,", ",")}</p> : null}
            {h.topics ? <p className="text-sm">Topics: {h.topics}</p> : null}
            {h.formUrl ? <p className="text-sm break-all">Where: {h.formUrl}</p> : null}
            {h.event.startsWith("Withdrew") ? <p className="text-sm">Through: {h.source}</p> : null}
            {h.wording ? (
              <details className="mt-1 text-sm">
                <summary>{h.version ? `Consent wording (version ${h.version})` : "Source or wording of the consent"}</summary>
                <p className="mt-1">{h.wording}</p>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      {s.status !== "unsubscribed" ? (
        <Form method="post" aria-labelledby="withdraw-title" className="mt-10">
          <h2 id="withdraw-title" className="text-xl font-semibold">
            Withdrawal asked for by e-mail or telephone
          </h2>
          <p className="mt-1 text-muted">Takes effect at once; the address stays on file as unsubscribed.</p>
          <button type="submit" name="intent" value="withdraw" className={`mt-3 ${btnSecondary}`}>
            Record the withdrawal
          </button>
        </Form>
      ) : null}
      {canErase ? (
        <Form method="post" aria-labelledby="erase-title" className="mt-10 border-t border-line pt-8">
          <h2 id="erase-title" className="text-xl font-semibold">
            Erase on request
          </h2>
          <p className="mt-1 text-muted">
            Deletes the address and its consent history. Only a hash of the address stays, so that it is never mailed or imported again.
          </p>
          <label className="mt-3 flex items-center gap-2">
            <input type="checkbox" name="confirm" value="yes" required className="size-4" /> The person asked to be erased
          </label>
          <button type="submit" name="intent" value="erase" className={`mt-3 ${btnDanger}`}>
            Erase {s.label}
          </button>
        </Form>
      ) : null}
    </AdminPage>
  );
}

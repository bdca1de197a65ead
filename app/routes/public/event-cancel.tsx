/**
 * /event/cancel/:token: the cancel link of an event registration (issue 45).
 * Opening it (GET) only shows the event and a Cancel button, so a mail
 * scanner that follows links cancels nothing; pressing it (POST) cancels
 * once. A place freed goes to the first person waiting, who is e-mailed at
 * once. Never cached; sent with no referrer (the token is a secret).
 */
import { data } from "react-router";
import type { Route } from "./+types/event-cancel";
import { cancelRegistration, getRegistrationByToken } from "~/.server/db/events";
import { eventMail } from "~/.server/events/messages";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { keepMail } from "~/.server/mail/mail";
import { personalLinkMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { SubmitButton } from "~/components/public/form-parts";
import { eventDateText, eventPath, eventTimeText } from "~/lib/events";
import { REGISTRATION_MSG } from "~/lib/forms/registration";
import type { RouteHandle } from "~/lib/route-handle";
import { actionOrLoaderHeaders } from "~/lib/http";

const NO_STORE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
type Outcome = "ready" | "cancelled" | "invalid";
type Answer = { outcome: Outcome; event: { title: string; slug: string; when: string } | null; status?: { tone: "success" | "error"; text: string } };

function answer(body: Answer, status = 200) {
  return data<Answer>(body, { status, headers: NO_STORE });
}

/**
 * Visit statistics count it under its pattern: the token in its path is a
 * secret. Its form's POST may carry `Origin: null` (the page is sent with
 * no referrer): the token makes it the site's own (server/same-origin.ts).
 */
export const handle = { statistics: "pattern", tokenInPath: true } satisfies RouteHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const found = await getRegistrationByToken(params.token ?? "");
  if (!found || found.registration.status === "attended") return answer({ outcome: "invalid", event: null }, 404);
  const e = found.event;
  // A link already used says so (200: the same page the press showed, which React Router renders after the action too).
  const outcome = found.registration.status === "cancelled" ? "cancelled" : "ready";
  return answer({ outcome, event: { title: e.title, slug: e.slug, when: `${eventDateText(e.starts_at)}, ${eventTimeText(e.starts_at)}` } });
}

export async function action({ params, request }: Route.ActionArgs) {
  // The form sends nothing but its button: a body is read only to refuse a large one (413).
  const form = await readForm(request, 1024);
  if (isRefusal(form) && form.init?.status === 413)
    return answer({ outcome: "invalid", event: null, status: { tone: "error", text: "The request is too large." } }, 413);
  // The first person waiting gets the freed place; the e-mail telling them is kept in the outbox, with the job that
  // sends it (the answer does not wait on the e-mail server), in the same transaction.
  const result = await cancelRegistration(params.token ?? "", (tx, promoted, event) => keepMail(tx, eventMail("promoted", event, promoted)));
  if (!result)
    return answer({ outcome: "invalid", event: null, status: { tone: "error", text: REGISTRATION_MSG.cancelMissing } }, 404);
  const e = result.event;
  return answer({
    outcome: "cancelled",
    event: { title: e.title, slug: e.slug, when: `${eventDateText(e.starts_at)}, ${eventTimeText(e.starts_at)}` },
    status: { tone: "success", text: REGISTRATION_MSG.cancelled },
  });
}

export const headers = actionOrLoaderHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return personalLinkMeta(matches, { title: "Cancel your registration", description: "Cancel your registration for an event.", path: "/events" });
}

const TITLE: Record<Outcome, string> = {
  ready: "Cancel your registration",
  cancelled: "Registration cancelled",
  invalid: "This link is not valid",
};

export default function EventCancel({ loaderData, actionData }: Route.ComponentProps) {
  const { outcome, event } = actionData ?? loaderData;
  const link = "font-semibold text-accent underline underline-offset-4";
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Events" title={TITLE[outcome]} />
      <div className="mx-auto max-w-3xl px-5 py-16 lg:px-8">
        {event ? (
          <p className="text-lg leading-8 text-ink">
            <a href={eventPath(event.slug)} className={link}>
              {event.title}
            </a>
            , {event.when}
          </p>
        ) : null}
        {outcome === "ready" ? (
          <>
            <p className="mt-4 text-lg leading-8 text-ink">Press the button to cancel your registration. Your place will go to the first person on the waiting list.</p>
            <form method="post" className="mt-6">
              <input type="hidden" name="cancel" value="yes" />
              <SubmitButton>Cancel my registration</SubmitButton>
            </form>
          </>
        ) : (
          <p role={outcome === "cancelled" ? "status" : "alert"} className="mt-4 text-lg leading-8 text-ink">
            {outcome === "cancelled" ? REGISTRATION_MSG.cancelled : REGISTRATION_MSG.cancelMissing}
          </p>
        )}
        <p className="mt-8">
          <a href="/events" className={link}>
            All events &amp; webinars
          </a>
        </p>
      </div>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;

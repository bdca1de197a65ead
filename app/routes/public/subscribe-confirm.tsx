/**
 * /subscribe/confirm/:token: the double opt-in link. Opening it (GET) only
 * shows a Confirm button, so a mail scanner that follows links confirms
 * nothing; pressing it (POST) confirms once, within 48 hours. An expired or
 * used link says so plainly. Never cached.
 */
import { data } from "react-router";
import type { Route } from "./+types/subscribe-confirm";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { confirmSubscription, peekConfirmation } from "~/.server/db/subscribers";
import { recordConversion } from "~/.server/statistics/stats-ingest";
import { personalLinkMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { SubmitButton } from "~/components/public/form-parts";
import { SUBSCRIBE_MSG } from "~/lib/forms/subscribe";
import type { RouteHandle } from "~/lib/route-handle";
import { actionOrLoaderHeaders } from "~/lib/http";

const NO_STORE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
type Outcome = "ready" | "confirmed" | "expired" | "used" | "invalid";

/**
 * Visit statistics count it under its pattern: the token in its path is a
 * secret. Its form's POST may carry `Origin: null` (the page is sent with
 * no referrer): the token makes it the site's own (server/same-origin.ts).
 */
export const handle = { statistics: "pattern", tokenInPath: true } satisfies RouteHandle;

function statusOf(outcome: Outcome): number {
  return outcome === "ready" || outcome === "confirmed" ? 200 : outcome === "invalid" ? 404 : 410;
}

export async function loader({ params }: Route.LoaderArgs) {
  const outcome: Outcome = await peekConfirmation(params.token ?? "");
  return data({ outcome }, { status: statusOf(outcome), headers: NO_STORE });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  // The form sends nothing but its button: a body is read only to refuse a large one (413).
  const form = await readForm(request, 1024);
  if (isRefusal(form) && form.init?.status === 413) {
    const tooLarge: Outcome = "invalid";
    return data({ outcome: tooLarge, status: { tone: "error", text: "The request is too large." } }, { status: 413, headers: NO_STORE });
  }
  const result = await confirmSubscription(params.token ?? "");
  if (result.outcome === "confirmed") recordConversion("subscription", request, context);
  const outcome: Outcome = result.outcome;
  const status = { tone: outcome === "confirmed" ? "success" : "error", text: TEXT[outcome] };
  return data({ outcome, status }, { status: statusOf(outcome), headers: NO_STORE });
}

export const headers = actionOrLoaderHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return personalLinkMeta(matches, { title: "Confirm your subscription", description: "Confirm your subscription to insights by e-mail.", path: "/subscribe" });
}

const TEXT: Record<Outcome, string> = {
  ready: "Press the button to confirm that you want to receive insights and client alerts at this address.",
  confirmed: SUBSCRIBE_MSG.confirmed,
  expired: SUBSCRIBE_MSG.expired,
  used: SUBSCRIBE_MSG.used,
  invalid: SUBSCRIBE_MSG.invalid,
};
const TITLE: Record<Outcome, string> = {
  ready: "Confirm your subscription",
  confirmed: "Subscription confirmed",
  expired: "This link has expired",
  used: "This link was already used",
  invalid: "This link is not valid",
};

export default function SubscribeConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const outcome = (actionData ?? loaderData).outcome;
  const link = "font-semibold text-accent underline underline-offset-4";
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Insights" title={TITLE[outcome]} />
      <div className="mx-auto max-w-3xl px-5 py-16 lg:px-8">
        <p role={outcome === "ready" ? undefined : outcome === "confirmed" ? "status" : "alert"} className="text-lg leading-8 text-ink">
          {TEXT[outcome]}
        </p>
        {outcome === "ready" ? (
          <form method="post" className="mt-6">
            <SubmitButton>Confirm my subscription</SubmitButton>
          </form>
        ) : (
          <p className="mt-6">
            {outcome === "confirmed" ? (
              <a href="/insights" className={link}>
                Read the latest insights
              </a>
            ) : (
              <a href="/subscribe" className={link}>
                Subscribe again
              </a>
            )}
          </p>
        )}
      </div>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;

/**
 * /subscribe: the insight sign-up form (issue 31). Like /contact, a GET is
 * shared by the page cache for a few seconds at most (the timing token,
 * decision 0009); the answer to a POST is for that request only, never stored.
 */
import type { Route } from "./+types/subscribe";
import { FORM_PAGE_CACHE_CONTROL, issueFormToken } from "~/.server/public-forms/spam-defence";
import { subscribeAction } from "~/.server/subscriptions/subscribe-form.server";
import { publicMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { SubscribeForm } from "~/components/public/subscribe-form";
import { FIRM } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

export function loader() {
  return { token: issueFormToken() };
}

export async function action({ request, context }: Route.ActionArgs) {
  return subscribeAction(request, context);
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return { "Cache-Control": actionHeaders.get("Cache-Control") ?? FORM_PAGE_CACHE_CONTROL };
}

export function meta({ matches }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Subscribe",
    description: `Receive ${FIRM.name}'s insights and client alerts on insurance defence, construction disputes and cyber incidents by e-mail.`,
    path: "/subscribe",
  });
}

export default function Subscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner
        eyebrow="Insights"
        title="Insights by e-mail"
        text="Client alerts and legal insights on the topics you choose. Unsubscribe at any time, from the link in every message."
      />
      <div className="mx-auto max-w-3xl px-5 py-16 lg:px-8 lg:py-20">
        <SubscribeForm state={actionData} token={actionData?.token ?? loaderData.token} />
      </div>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;

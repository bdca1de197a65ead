/**
 * /contact: the enquiry form on a page of its own (the home page's contact
 * section holds the same form, posting here). GET is cached briefly by the
 * page cache (the timing token, decision 0009); the answer to a POST is
 * rendered for that request only and never stored.
 */
import type { Route } from "./+types/contact";
import { enquiryAction } from "~/.server/public-forms/enquiry-form.server";
import { FORM_PAGE_CACHE_CONTROL, issueFormToken } from "~/.server/public-forms/spam-defence";
import { ContactLinks } from "~/components/public/contact-links";
import { EnquiryForm } from "~/components/public/enquiry-form";
import { publicMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { FIRM } from "~/config/firm";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

export function loader() {
  return { token: issueFormToken() };
}

export async function action({ request, context }: Route.ActionArgs) {
  return enquiryAction(request, context);
}

/** The answer to a POST: the action's Cache-Control (private, no-store). A GET: shared for a few seconds at most. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return { "Cache-Control": actionHeaders.get("Cache-Control") ?? FORM_PAGE_CACHE_CONTROL };
}

export function meta({ matches }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: "Contact",
    description: `Send ${FIRM.name} an enquiry about insurance defence, a construction dispute or a cyber incident, or call ${FIRM.phone}.`,
    path: "/contact",
  });
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData;
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Contact" title="Send us an enquiry" text="Tell us about the claim, the project or the incident. A lawyer will respond, usually the same business day." />
      <div className="mx-auto grid max-w-7xl gap-14 px-5 py-16 lg:grid-cols-[1.6fr_1fr] lg:px-8 lg:py-20">
        <EnquiryForm state={state} token={state?.token ?? loaderData.token} />
        <aside aria-labelledby="contact-details-title" className="lg:pt-2">
          <h2 id="contact-details-title" className="text-2xl font-semibold">
            Other ways to reach us
          </h2>
          <ContactLinks className="mt-6" />
          <p className="mt-8 text-muted">
            How we use and keep what you send is explained in our{" "}
            <a href="/privacy" className="font-semibold text-accent underline underline-offset-4">
              privacy notice
            </a>
            .
          </p>
        </aside>
      </div>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;

import { ArrowRight, MapPin } from "lucide-react";
import type { ReactNode } from "react";
import type { Route } from "./+types/home";
import { listLatestArticles } from "~/.server/db/articles";
import { cardSummary } from "~/.server/content/article-text";
import { getOfficeHours } from "~/.server/db/office-hours";
import { getEnv } from "~/.server/env";
import { FORM_PAGE_CACHE_CONTROL, issueFormToken } from "~/.server/public-forms/spam-defence";
import { ArticleCard } from "~/components/public/article-card";
import { ContactLinks } from "~/components/public/contact-links";
import { EnquiryForm } from "~/components/public/enquiry-form";
import { publicMeta } from "~/components/public/meta";
import { PublicRouteError } from "~/components/public/public-error";
import { SectionLink } from "~/components/public/section-link";
import { EMPTY_ARTICLES, StatusMessage } from "~/components/public/status";
import { FIRM, fullAddress } from "~/config/firm";
import { PRACTICE_PAGES } from "~/lib/practice";
import { weekdayHoursText } from "~/lib/site";
import { legalServiceJsonLd } from "~/lib/structured-data";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

export async function loader() {
  const [hours, articles] = await Promise.all([getOfficeHours(), listLatestArticles(6)]);
  return {
    hoursText: weekdayHoursText(hours),
    jsonLd: [legalServiceJsonLd(getEnv().publicUrl, hours)],
    articles: articles.map((a) => ({ id: a.id, slug: a.slug, title: a.title, date: a.date, category: a.category, news: a.news, summary: cardSummary(a) })),
    /** The enquiry form's timing token (decision 0009). */
    enquiryToken: issueFormToken(),
  };
}

/** The page holds the enquiry form's timing token: shared (page cache, CDN) for a few seconds at most. */
export function headers() {
  return { "Cache-Control": FORM_PAGE_CACHE_CONTROL };
}

/** The hero's line pattern is part of the first view: fetch it early. */

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: FIRM.name,
    description: `${FIRM.name}: ${FIRM.tagline} Litigators for insurers, builders and businesses.`,
    path: "/",
    jsonLd: loaderData?.jsonLd,
  });
}

const PRACTICE_BLURBS = {
  insurance: "Defence of bodily injury, property, coverage and accident benefits claims for insurers and their insureds.",
  construction: "Lien, delay, deficiency and payment disputes for owners, contractors and sureties, in court and in adjudication.",
  cyber: "Around-the-clock breach counsel, and the defence of the regulatory matters and claims that follow an incident.",
} as const;

/**
 * A section the section links scroll to (`/#about`, `/#contact`, components/public/section-link.tsx):
 * it stops 30 px below the top (SPEC §2) and is named by its heading, `${id}-title`.
 */
function LinkedSection({ id, children }: { id: "about" | "contact"; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="fade-section scroll-mt-[30px] outline-none">
      {children}
    </section>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { articles, hoursText, enquiryToken } = loaderData;
  const mapSrc = `https://www.google.com/maps?q=${encodeURIComponent(FIRM.mapQuery)}&output=embed`;
  const mapLink = `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(FIRM.mapQuery)}`;
  const mapTitle = `Map of ${FIRM.name}, ${fullAddress()}`;
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <section className="on-dark hero-bg relative flex min-h-[88svh] items-end bg-ink text-white" aria-labelledby="hero-title">
        <div className="mx-auto w-full max-w-7xl px-5 pt-44 pb-20 sm:pb-28 lg:px-8">
          <p className="text-xs font-semibold tracking-[0.24em] text-brass-light uppercase">Toronto · Litigation counsel</p>
          <h1 id="hero-title" className="mt-5 max-w-4xl text-5xl leading-[1.05] font-semibold text-balance sm:text-6xl lg:text-7xl">
            Our reputation is built on results
          </h1>
          <p className="mt-6 max-w-2xl text-lg leading-8 text-white/90">{FIRM.tagline}</p>
          <SectionLink
            section="about"
            slow
            className="mt-10 inline-flex items-center gap-3 border border-brass-light px-7 py-4 text-sm font-semibold tracking-[0.18em] text-white uppercase transition-colors hover:bg-brass-light hover:text-ink"
          >
            DISCOVER MORE
          </SectionLink>
        </div>
      </section>

      <LinkedSection id="about">
        <div className="mx-auto grid max-w-7xl gap-14 px-5 py-24 lg:grid-cols-[1fr_1.1fr] lg:px-8 lg:py-32">
          <div>
            <p className="text-xs font-semibold tracking-[0.2em] text-brass uppercase">About us</p>
            <h2 id="about-title" className="mt-3 text-4xl leading-tight font-semibold text-balance">
              Counsel for the moments that decide a file
            </h2>
          </div>
          <div className="space-y-5 text-lg leading-8 text-ink/90">
            <p>
              {FIRM.name} is a Toronto litigation firm acting for insurers, builders and businesses. We defend claims, resolve
              construction disputes and lead the legal response when a cyber incident strikes, and we expect to be judged the way our
              clients are: by outcomes.
            </p>
            <p>
              Our lawyers appear at every level of court in Ontario and before its principal tribunals. Clients come to us for a candid
              early assessment, a budget that holds, and reporting that helps them decide rather than merely keeps them informed.
            </p>
          </div>
        </div>
        <div className="mx-auto max-w-7xl px-5 pb-24 lg:px-8 lg:pb-32">
          <ul className="grid gap-px border border-line bg-line md:grid-cols-3">
            {(Object.keys(PRACTICE_PAGES) as (keyof typeof PRACTICE_PAGES)[]).map((area) => (
              <li key={area} className="group relative bg-ground p-8 transition-colors hover:bg-white">
                <h3 className="text-2xl leading-snug font-semibold">
                  <a href={PRACTICE_PAGES[area].path} className="after:absolute after:inset-0 group-hover:text-accent group-hover:underline">
                    {PRACTICE_PAGES[area].title}
                  </a>
                </h3>
                <p className="mt-4 leading-7 text-muted">{PRACTICE_BLURBS[area]}</p>
                <ArrowRight aria-hidden="true" className="mt-6 h-5 w-5 text-accent transition-transform group-hover:translate-x-1" />
              </li>
            ))}
          </ul>
        </div>
      </LinkedSection>

      <section aria-labelledby="news-title" className="fade-section bg-soft">
        <div className="mx-auto max-w-7xl px-5 py-24 lg:px-8">
          <div className="flex flex-wrap items-end justify-between gap-6">
            <div>
              <p className="text-xs font-semibold tracking-[0.2em] text-accent uppercase">Latest</p>
              <h2 id="news-title" className="mt-3 text-4xl font-semibold">
                News &amp; Insights
              </h2>
            </div>
            <a
              href="/insights"
              className="inline-flex items-center gap-2 bg-accent px-6 py-3 text-sm font-semibold tracking-[0.16em] text-white uppercase hover:bg-accent-dark"
            >
              SEE ALL
            </a>
          </div>
          {articles.length === 0 ? (
            <StatusMessage>{EMPTY_ARTICLES}</StatusMessage>
          ) : (
            <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {articles.map((article) => (
                <li key={article.id}>
                  <ArticleCard article={article} headingLevel={3} withImage={false} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      <LinkedSection id="contact">
        <div className="mx-auto grid max-w-7xl gap-12 px-5 py-24 lg:grid-cols-[1fr_1.3fr] lg:px-8 lg:py-32">
          <div>
            <p className="text-xs font-semibold tracking-[0.2em] text-brass uppercase">Contact</p>
            <h2 id="contact-title" className="mt-3 text-4xl font-semibold">
              Speak with us
            </h2>
            <p className="mt-5 text-lg leading-8 text-ink/90">
              Tell us about the claim, the project or the incident. A lawyer will respond the same business day.
            </p>
            <ContactLinks fax className="mt-10" />
            <p className="mt-8 text-muted">{hoursText}</p>
          </div>
          {/* A plan of the streets drawn for this site (public/office-map.svg): the page asks no other host for anything.
              Google's map loads only when the visitor presses "Show the map" (app/enhance/map-frame.ts; the button is
              hidden until the module runs); without JavaScript, the link opens the address on Google Maps. */}
          <figure className="flex flex-col overflow-hidden border border-line bg-soft" data-map-frame="" data-src={mapSrc} data-title={mapTitle}>
            <img
              src="/office-map.svg"
              width={800}
              height={480}
              loading="lazy"
              alt={`Plan of the streets around the office: ${fullAddress()}, on Wellington Street West at York Street, between King Street West and Front Street West, across Front Street from Union Station.`}
              className="h-auto w-full"
              data-map-picture=""
            />
            <figcaption className="flex flex-wrap items-center gap-x-6 gap-y-3 border-t border-line bg-white px-5 py-4">
              <button
                type="button"
                hidden
                data-map-show=""
                className="inline-flex items-center gap-2 bg-accent px-5 py-3 text-sm font-semibold tracking-[0.14em] text-white uppercase hover:bg-accent-dark"
              >
                <MapPin aria-hidden="true" className="h-4 w-4" />
                Show the map
              </button>
              <a href={mapLink} className="text-sm font-semibold text-accent underline underline-offset-4 hover:text-accent-dark">
                Open in Google Maps
              </a>
              <span className="w-full text-sm text-muted">The map is Google&apos;s: it loads from Google only when you ask for it.</span>
            </figcaption>
          </figure>
        </div>
        <div className="mx-auto max-w-7xl px-5 pb-24 lg:px-8 lg:pb-32">
          <div className="max-w-3xl">
            <EnquiryForm token={enquiryToken} headingLevel={3} />
          </div>
        </div>
      </LinkedSection>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;

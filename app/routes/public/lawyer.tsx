import { ArrowRight, Award, Download, FileText, Mail, Phone, Smartphone } from "lucide-react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/lawyer";
import { cardSummary } from "~/.server/content/article-text";
import { listArticlePage } from "~/.server/db/articles";
import { listUpcomingEventsOfSpeaker } from "~/.server/db/event-listings";
import { findMovedSlug } from "~/.server/db/slug-lookup";
import { getTeamMemberBySlug } from "~/.server/db/team";
import { getEnv } from "~/.server/env";
import { log } from "~/.server/log";
import { sanitizeMattersHtml } from "~/.server/content/sanitize";
import { PREVIEW_BANNER, PREVIEW_CACHE_CONTROL, previewTeamMember } from "~/.server/content/preview";
import { ArticleGrid } from "~/components/public/article-card";
import { EventCardList } from "~/components/public/event-card";
import { PreviewBanner } from "~/components/public/preview-banner";
import { publicMeta } from "~/components/public/meta";
import { Picture } from "~/components/public/picture";
import { PublicRouteError } from "~/components/public/public-error";
import { FIRM } from "~/config/firm";
import { eventCardView } from "~/lib/events";
import { PRACTICE_AREAS, PRACTICE_PAGES, type PracticeArea } from "~/lib/practice";
import { firstName, insightsHref, shortDescription } from "~/lib/site";
import { socialImagePath } from "~/lib/social";
import { breadcrumbJsonLd, personJsonLd } from "~/lib/structured-data";
import { mobileUri } from "~/lib/vcard";
import { hasCertification, MATTERS_CONSENT_NOTE, specialistText, spokenLanguages } from "~/lib/profile";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

const LAWYER_NOT_FOUND = "Error. Could not retrieve lawyer.";
/** Articles shown in a profile's "Insights by …" section (the spec's list size). */
const INSIGHTS_SHOWN = 6;

export async function loader({ request, params }: Route.LoaderArgs) {
  // A staff or shared preview (hidden too, never cached), or the public page (visible only).
  const preview = await previewTeamMember(request, params.slug, { message: LAWYER_NOT_FOUND });
  const member = preview ?? await getTeamMemberBySlug(params.slug).catch((error: unknown) => {
    log("error", "Error loading team member", { error: (error as Error)?.message });
    throw error;
  });
  if (!member) {
    // An old link (other case or spelling, or a name since changed): 301 to the current page.
    const moved = await findMovedSlug("lawyer", params.slug);
    if (moved) throw redirect(`/lawyer/${encodeURIComponent(moved)}`, 301);
    throw data({ message: LAWYER_NOT_FOUND }, { status: 404 });
  }
  const { id, slug, full_name, title, email, extension, mobile, desc, img, AOP, area_details, staff } = member;
  const { admissions, education, memberships } = member;
  const site = getEnv().publicUrl;
  const jsonLd = [
    personJsonLd(site, member),
    breadcrumbJsonLd(site, [
      { name: "Home", path: "/" },
      { name: "Our Team", path: "/team" },
      { name: full_name, path: `/lawyer/${encodeURIComponent(slug)}` },
    ]),
  ];
  // "Insights by {first name}": the latest INSIGHTS_SHOWN published articles naming this lawyer.
  const insights = await listArticlePage({ filter: "all", page: 1, pageSize: INSIGHTS_SHOWN, authorId: id });
  // The upcoming public events this lawyer speaks at (issue 45 item 8); the page cache is cleared when an event changes or ends.
  const events = (await listUpcomingEventsOfSpeaker(id)).map(eventCardView);
  const page = {
    member: {
      ...{ id, slug, full_name, title, email, extension, mobile, desc, img, AOP, area_details, staff },
      ...{ admissions, education, memberships },
      languages: spokenLanguages(member).map((l) => l.label),
      specialist: hasCertification(member) ? specialistText(member.specialist_area, member.specialist_year) : null,
      matters: sanitizeMattersHtml(member.matters),
    },
    insights: {
      total: insights.total,
      items: insights.items.map((a) => ({ id: a.id, slug: a.slug, title: a.title, date: a.date, category: a.category, img: a.img, news: a.news, summary: cardSummary(a) })),
    },
    events,
    jsonLd: preview ? [] : jsonLd,
    preview: preview ? PREVIEW_BANNER : null,
  };
  return preview ? data(page, { headers: { "Cache-Control": PREVIEW_CACHE_CONTROL } }) : page;
}

/** Previews are never stored by the page cache, a proxy or a CDN. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : {};
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  if (!loaderData) {
    return publicMeta(matches, { title: "Lawyer not found", description: LAWYER_NOT_FOUND, path: `/lawyer/${params.slug}`, noindex: true });
  }
  const m = loaderData.member;
  return publicMeta(matches, {
    noindex: loaderData.preview ? true : undefined,
    title: `${m.full_name}, ${m.title}`,
    description: shortDescription(m.desc || `${m.full_name}, ${m.title} at ${FIRM.name}.`),
    path: `/lawyer/${encodeURIComponent(m.slug)}`,
    type: "profile",
    image: { path: socialImagePath("team", m.img), alt: `Portrait of ${m.full_name}` },
    jsonLd: loaderData.jsonLd,
  });
}

/** The profile's two downloads (the contact card and the PDF bio), styled alike (issue 43). */
const DOWNLOAD_CLASS =
  "inline-flex items-center gap-3 bg-accent px-6 py-3 text-sm font-semibold tracking-[0.16em] text-white uppercase hover:bg-accent-dark";

function BioPdfLink({ slug }: { slug: string }) {
  return (
    <a href={`/lawyer/${encodeURIComponent(slug)}/bio.pdf`} download className={DOWNLOAD_CLASS}>
      <FileText aria-hidden="true" className="h-4 w-4" />
      Download bio (PDF)
    </a>
  );
}

function VCardButton({ slug }: { slug: string }) {
  return (
    <a href={`/lawyer/${encodeURIComponent(slug)}/vcard`} download className={DOWNLOAD_CLASS}>
      <Download aria-hidden="true" className="h-4 w-4" />
      DOWNLOAD VCARD
    </a>
  );
}

export default function Lawyer({ loaderData }: Route.ComponentProps) {
  const m = loaderData.member;
  const areas = m.AOP.map((a) => a.toLowerCase()).filter((a): a is PracticeArea => (PRACTICE_AREAS as readonly string[]).includes(a));
  const mobileHref = mobileUri(m.mobile);
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      {loaderData.preview ? <PreviewBanner text={loaderData.preview} /> : null}
      <div className="border-b border-line bg-soft">
        <nav aria-label="Breadcrumb" className="mx-auto max-w-7xl px-5 py-4 text-sm lg:px-8">
          <ol className="flex flex-wrap gap-2 text-muted">
            <li>
              <a href="/team" className="text-accent hover:underline">
                Our Team
              </a>
              <span aria-hidden="true"> / </span>
            </li>
            <li aria-current="page">{m.full_name}</li>
          </ol>
        </nav>
      </div>
      <div className="mx-auto grid max-w-7xl gap-12 px-5 py-16 lg:grid-cols-[minmax(0,360px)_1fr] lg:gap-20 lg:px-8 lg:py-20">
        <div className="lg:sticky lg:top-28 lg:self-start">
          <Picture
            place="lawyerPortrait"
            img={m.img}
            alt={`Portrait of ${m.full_name}`}
            fetchPriority="high"
            loading="eager"
            className="aspect-[4/5] w-full max-w-sm bg-soft object-cover"
          />
        </div>
        <div>
          <h1 className="text-4xl leading-tight font-semibold sm:text-5xl">{m.full_name}</h1>
          <p className="mt-3 text-xl text-brass">{m.title}</p>
          {m.specialist ? (
            <p className="mt-3 flex items-start gap-2 text-ink/90">
              <Award aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-accent" />
              {m.specialist}
            </p>
          ) : null}
          <ul className="mt-8 space-y-3 text-lg">
            <li className="flex items-center gap-3">
              <Phone aria-hidden="true" className="h-5 w-5 text-accent" />
              <a href={`tel:${FIRM.phoneE164}`} className="text-accent hover:underline">
                {FIRM.phone}
                {m.extension ? ` ext. ${m.extension}` : ""}
              </a>
            </li>
            {m.mobile.trim() ? (
              <li className="flex items-center gap-3">
                <Smartphone aria-hidden="true" className="h-5 w-5 text-accent" />
                {mobileHref ? (
                  <a href={mobileHref} className="text-accent hover:underline">
                    <span className="sr-only">Mobile: </span>
                    {m.mobile}
                  </a>
                ) : (
                  <span>{m.mobile}</span>
                )}
              </li>
            ) : null}
            <li className="flex items-center gap-3">
              <Mail aria-hidden="true" className="h-5 w-5 text-accent" />
              <a href={`mailto:${m.email}`} className="break-all text-accent hover:underline">
                {m.email}
              </a>
            </li>
          </ul>
          <div className="mt-8 flex flex-wrap gap-4">
            <VCardButton slug={m.slug} />
            <BioPdfLink slug={m.slug} />
          </div>

          {areas.length > 0 || m.area_details.length > 0 ? (
            <section aria-labelledby="aop-title" className="mt-14 border-t border-line pt-10">
              <h2 id="aop-title" className="text-2xl font-semibold">
                Areas of Practice
              </h2>
              {areas.length > 0 ? (
                <ul className="mt-5 flex flex-wrap gap-3">
                  {areas.map((area) => (
                    <li key={area}>
                      <a href={PRACTICE_PAGES[area].path} className="inline-block border border-accent px-4 py-2 text-sm font-semibold text-accent hover:bg-accent hover:text-white">
                        {PRACTICE_PAGES[area].title}
                      </a>
                    </li>
                  ))}
                </ul>
              ) : null}
              {m.area_details.length > 0 ? (
                <DashList items={m.area_details} className="mt-6 grid gap-x-8 gap-y-2 sm:grid-cols-2" itemClassName="flex gap-3 leading-7" />
              ) : null}
            </section>
          ) : null}

          <Credentials admissions={m.admissions} education={m.education} languages={m.languages} memberships={m.memberships} />

          {m.staff.length > 0 ? (
            <section aria-labelledby="staff-title" className="mt-14 border-t border-line pt-10">
              <h2 id="staff-title" className="text-2xl font-semibold">
                Team
              </h2>
              <ul className="mt-6 grid gap-6 sm:grid-cols-2">
                {m.staff.map((person) => (
                  <li key={`${person.name}-${person.email}`} className="border-l-2 border-brass pl-4">
                    <p className="font-semibold">{person.name}</p>
                    <p className="text-muted">{person.title}</p>
                    {person.extension ? (
                      <p>
                        <a href={`tel:${FIRM.phoneE164}`} className="text-accent hover:underline">
                          {FIRM.phone} ext. {person.extension}
                        </a>
                      </p>
                    ) : null}
                    <p>
                      <a href={`mailto:${person.email}`} className="break-all text-accent hover:underline">
                        {person.email}
                      </a>
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {m.desc.trim() ? (
            <section aria-labelledby="bio-title" className="mt-14 border-t border-line pt-10">
              <h2 id="bio-title" className="text-2xl font-semibold">
                Biography
              </h2>
              <div className="mt-5 max-w-3xl space-y-4 text-lg leading-8 text-ink/90">
                {m.desc
                  .split(/\n{2,}|\r\n\r\n/)
                  .filter((p) => p.trim())
                  .map((paragraph, i) => (
                    <p key={i}>{paragraph}</p>
                  ))}
              </div>
            </section>
          ) : null}
          {m.matters ? (
            <section aria-labelledby="matters-title" className="mt-14 border-t border-line pt-10">
              <h2 id="matters-title" className="text-2xl font-semibold">
                Representative Matters
              </h2>
              <div className="prose-article mt-5 max-w-3xl text-lg text-ink/90" dangerouslySetInnerHTML={{ __html: m.matters }} />
              <p className="mt-4 text-sm text-muted">{MATTERS_CONSENT_NOTE}</p>
            </section>
          ) : null}
          {loaderData.events.length > 0 ? (
            <section aria-labelledby="events-title" className="mt-14 border-t border-line pt-10">
              <h2 id="events-title" className="text-2xl font-semibold">
                Upcoming events
              </h2>
              <EventCardList events={loaderData.events} narrow />
            </section>
          ) : null}
          <div className="mt-12 flex flex-wrap gap-4">
            <VCardButton slug={m.slug} />
            <BioPdfLink slug={m.slug} />
          </div>
        </div>
      </div>
      {loaderData.insights.items.length > 0 ? (
        <section aria-labelledby="insights-title" className="border-t border-line bg-soft">
          <div className="mx-auto max-w-7xl px-5 py-16 lg:px-8 lg:py-20">
            <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-3">
              <h2 id="insights-title" className="text-3xl font-semibold">
                Insights by {firstName(m.full_name)}
              </h2>
              <a href={insightsHref("all", 1, m.slug)} className="inline-flex items-center gap-2 font-semibold text-accent hover:underline">
                All insights by {m.full_name}
                {loaderData.insights.total > loaderData.insights.items.length ? ` (${loaderData.insights.total})` : ""}
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </a>
            </div>
            <div className="mt-10">
              <ArticleGrid articles={loaderData.insights.items} headingLevel={3} />
            </div>
          </div>
        </section>
      ) : null}
    </main>
  );
}

/** Bar admissions, education, languages and memberships: each heading only with something under it. */
function Credentials(props: {
  admissions: { jurisdiction: string; year: number }[];
  education: { degree: string; school: string; year: number | null }[];
  languages: string[];
  memberships: string[];
}) {
  const blocks = [
    props.admissions.length > 0 && {
      id: "admissions-title",
      title: "Bar Admissions",
      items: props.admissions.map((a) => `${a.jurisdiction}, ${a.year}`),
    },
    props.education.length > 0 && {
      id: "education-title",
      title: "Education",
      items: props.education.map((e) => [e.degree, e.school, e.year].filter(Boolean).join(", ")),
    },
    props.languages.length > 0 && { id: "languages-title", title: "Languages", items: props.languages },
    props.memberships.length > 0 && { id: "memberships-title", title: "Professional Memberships", items: props.memberships },
  ].filter((b): b is { id: string; title: string; items: string[] } => !!b);
  if (blocks.length === 0) return null;
  return (
    <div className="mt-14 grid gap-10 border-t border-line pt-10 sm:grid-cols-2">
      {blocks.map((b) => (
        <section key={b.id} aria-labelledby={b.id}>
          <h2 id={b.id} className="text-2xl font-semibold">
            {b.title}
          </h2>
          <DashList items={b.items} className="mt-4 space-y-2 leading-7" itemClassName="flex gap-3" />
        </section>
      ))}
    </div>
  );
}

/** A list whose items each start with a short brass rule (a practice's details, the credentials). */
function DashList({ items, className, itemClassName }: { items: string[]; className: string; itemClassName: string }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className={itemClassName}>
          <span aria-hidden="true" className="mt-3 h-px w-4 shrink-0 bg-brass" />
          {item}
        </li>
      ))}
    </ul>
  );
}

export function ErrorBoundary() {
  return (
    <PublicRouteError
      notFound={{
        title: LAWYER_NOT_FOUND,
        message: "The profile you followed may have moved. Our team page lists everyone at the firm.",
      }}
    />
  );
}

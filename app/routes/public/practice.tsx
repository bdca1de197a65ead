import { ArrowRight } from "lucide-react";
import { data } from "react-router";
import type { Route } from "./+types/practice";
import { listArticlePage } from "~/.server/db/articles";
import { listUpcomingEventsOfArea } from "~/.server/db/event-listings";
import { cardSummary } from "~/.server/content/article-text";
import { getPageHeaderText } from "~/.server/db/page-headers";
import { getEnv } from "~/.server/env";
import { listTeamCards } from "~/.server/db/team";
import { ArticleGrid } from "~/components/public/article-card";
import { EventCardList } from "~/components/public/event-card";
import { publicMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { Pagination } from "~/components/public/pagination";
import { PRACTICE_COPY } from "~/lib/practice-copy";
import { PublicRouteError } from "~/components/public/public-error";
import { SectionLink } from "~/components/public/section-link";
import { EMPTY_ARTICLES, StatusMessage } from "~/components/public/status";
import { TeamDirectory } from "~/components/public/team-directory";
import { FIRM } from "~/config/firm";
import { eventCardView, eventsHref, type EventCardView } from "~/lib/events";
import { parsePage } from "~/lib/pagination";
import { membersOfArea, PRACTICE_PAGES } from "~/lib/practice";
import { breadcrumbJsonLd } from "~/lib/structured-data";
import type { RouteHandle } from "~/lib/route-handle";
import { filterTeam, isFiltered, languagesSpoken, NO_TEAM_FILTERS, parseTeamFilters, TEAM_FILTER_PARAMS } from "~/lib/team-filters";
import { shortDescription, parsePracticeTab, practiceAreaOfPath, practiceHref, PRACTICE_TABS, type PracticeTab } from "~/lib/site";

const TAB_LABELS: Record<PracticeTab, string> = { overview: "Overview", team: "Team", insights: "Insights" };

/** The page cache keeps this page (lib/route-handle.ts) by the tab, the Insights page and the Team tab's filters (the practice area is the page itself). */
export const handle = {
  pageCache: { params: ["tab", "page", ...TEAM_FILTER_PARAMS.filter((p) => p !== "practice")] },
  statistics: "path",
} satisfies RouteHandle;

/** Upcoming events shown on a practice page's overview. */
const PRACTICE_EVENTS_SHOWN = 3;
const NO_EVENTS: EventCardView[] = [];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const area = practiceAreaOfPath(url.pathname);
  if (!area) throw data(null, { status: 404 });
  const tab = parsePracticeTab(url.searchParams.get("tab"));
  const headerText = await getPageHeaderText(area);
  const jsonLd = [
    breadcrumbJsonLd(getEnv().publicUrl, [
      { name: "Home", path: "/" },
      { name: PRACTICE_PAGES[area].title, path: PRACTICE_PAGES[area].path },
    ]),
  ];
  if (tab === "team") {
    const everyone = membersOfArea(await listTeamCards(), area);
    // The Team tab's filters, as on /team; the practice area is the page's own.
    const filters = { ...parseTeamFilters(url.searchParams), practice: null };
    const members = filterTeam(everyone, filters).map(({ id, slug, full_name, title, img }) => ({ id, slug, full_name, title, img }));
    const team = { filters, filtered: isFiltered(filters), languages: languagesSpoken(everyone), total: everyone.length };
    return { area, tab, headerText, jsonLd, members, team, articles: null, events: NO_EVENTS };
  }
  if (tab === "insights") {
    const result = await listArticlePage({ filter: area, page: parsePage(url.searchParams.get("page")), pinnedFirst: true });
    const items = result.items.map((a) => ({ id: a.id, slug: a.slug, title: a.title, date: a.date, category: a.category, img: a.img, news: a.news, priority: a.priority, summary: cardSummary(a) }));
    return { area, tab, headerText, jsonLd, members: null, team: null, articles: { items, page: result.page, pageCount: result.pageCount }, events: NO_EVENTS };
  }
  // The overview lists the area's next few events (issue 45 item 8); the page cache is cleared when an event changes or ends.
  const events = (await listUpcomingEventsOfArea(area, PRACTICE_EVENTS_SHOWN)).map(eventCardView);
  return { area, tab, headerText, jsonLd, members: null, team: null, articles: null, events };
}

export function meta({ matches, loaderData, location }: Route.MetaArgs) {
  const area = loaderData?.area ?? practiceAreaOfPath(location.pathname) ?? "insurance";
  const page = PRACTICE_PAGES[area];
  const tab = loaderData?.tab ?? "overview";
  const pageNo = loaderData?.articles?.page ?? 1;
  return publicMeta(matches, {
    title: tab === "overview" ? page.title : `${page.title}: ${TAB_LABELS[tab]}${pageNo > 1 ? `, page ${pageNo}` : ""}`,
    description: shortDescription(`${page.title} at ${FIRM.name}, Toronto. ${PRACTICE_COPY[area].lead}`),
    path: practiceHref(page.path, tab, pageNo),
    jsonLd: loaderData?.jsonLd,
    // The Team tab filtered: not indexed, the canonical link is the tab itself.
    noindex: loaderData?.team?.filtered || undefined,
  });
}

export default function Practice({ loaderData }: Route.ComponentProps) {
  const { area, tab, headerText } = loaderData;
  const page = PRACTICE_PAGES[area];
  const copy = PRACTICE_COPY[area];

  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Practice area" title={page.title} subtitle={page.subtitle} text={headerText} />
      <div className="border-b border-line bg-white">
        <nav aria-label={`${page.title} sections`} className="mx-auto max-w-7xl px-5 lg:px-8" data-keep-focus="tabs">
          <ul className="-mb-px flex gap-8" data-arrow-keys="">
            {PRACTICE_TABS.map((t) => (
              <li key={t}>
                <a
                  href={practiceHref(page.path, t)}
                  aria-current={t === tab ? "page" : undefined}
                  className="inline-block border-b-2 border-transparent py-4 text-sm font-semibold tracking-[0.14em] text-muted uppercase hover:text-ink aria-[current=page]:border-accent aria-[current=page]:text-accent"
                >
                  {TAB_LABELS[t]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <section aria-labelledby="panel-title" className="mx-auto max-w-7xl px-5 py-16 lg:px-8 lg:py-20">
        <h2 id="panel-title" className={tab === "overview" ? "sr-only" : "text-3xl font-semibold"}>
          {TAB_LABELS[tab]}
        </h2>
        {tab === "overview" ? (
          <Overview area={area} />
        ) : tab === "team" ? (
          <div className="mt-10">
            <TeamDirectory
              action={page.path}
              hidden={{ tab: "team" }}
              practiceFilter={false}
              filters={loaderData.team?.filters ?? NO_TEAM_FILTERS}
              languages={loaderData.team?.languages ?? []}
              members={loaderData.members ?? []}
              total={loaderData.team?.total ?? 0}
              clearHref={practiceHref(page.path, "team")}
              headingLevel={3}
            />
          </div>
        ) : loaderData.articles && loaderData.articles.items.length > 0 ? (
          <div className="mt-10">
            <ArticleGrid articles={loaderData.articles.items} headingLevel={3} />
            <Pagination
              page={loaderData.articles.page}
              pageCount={loaderData.articles.pageCount}
              href={(p) => practiceHref(page.path, "insights", p)}
            />
          </div>
        ) : (
          <StatusMessage>{EMPTY_ARTICLES}</StatusMessage>
        )}
      </section>
      {tab === "overview" && loaderData.events.length > 0 ? (
        <UpcomingEvents events={loaderData.events} href={eventsHref({ area, format: "all" })} />
      ) : null}
      {tab === "overview" ? <HowCanWeHelp text={copy.help} /> : null}
    </main>
  );
}

function Overview({ area }: { area: keyof typeof PRACTICE_COPY }) {
  const copy = PRACTICE_COPY[area];
  return (
    <div className="grid gap-12 lg:grid-cols-[1.15fr_1fr] lg:gap-16">
      <div>
        <p className="font-serif text-2xl leading-snug text-ink">{copy.lead}</p>
        <div className="mt-8 space-y-5 text-lg leading-8 text-ink/90">
          {copy.paragraphs.map((p) => (
            <p key={p.slice(0, 24)}>{p}</p>
          ))}
        </div>
        <h3 className="mt-12 text-xl font-semibold">What we do</h3>
        <ul className="mt-5 grid gap-x-8 gap-y-3 sm:grid-cols-2">
          {copy.services.map((s) => (
            <li key={s} className="flex gap-3 leading-7">
              <span aria-hidden="true" className="mt-3 h-px w-4 shrink-0 bg-brass" />
              {s}
            </li>
          ))}
        </ul>
      </div>
      <div>
        <img
          src={copy.image.src}
          alt={copy.image.alt}
          width={1200}
          height={900}
          fetchPriority="high"
          className="aspect-[4/3] w-full bg-soft object-cover"
        />
      </div>
    </div>
  );
}

function UpcomingEvents({ events, href }: { events: EventCardView[]; href: string }) {
  return (
    <section aria-labelledby="events-title" className="border-t border-line">
      <div className="mx-auto max-w-7xl px-5 py-16 lg:px-8 lg:py-20">
        <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-3">
          <h2 id="events-title" className="text-3xl font-semibold">
            Upcoming events
          </h2>
          <a href={href} className="inline-flex items-center gap-2 font-semibold text-accent hover:underline">
            All events
            <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </a>
        </div>
        <EventCardList events={events} />
      </div>
    </section>
  );
}

function HowCanWeHelp({ text }: { text: string }) {
  return (
    <section aria-labelledby="help-title" className="fade-section bg-soft">
      <div className="mx-auto flex max-w-7xl flex-col gap-8 px-5 py-20 lg:flex-row lg:items-center lg:justify-between lg:px-8">
        <div className="max-w-2xl">
          <h2 id="help-title" className="text-3xl font-semibold">
            How can we help?
          </h2>
          <p className="mt-4 text-lg leading-8 text-ink/90">{text}</p>
        </div>
        <SectionLink
          section="contact"
          className="inline-flex shrink-0 items-center justify-center bg-accent px-8 py-4 text-sm font-semibold tracking-[0.18em] text-white uppercase hover:bg-accent-dark"
        >
          CONTACT
        </SectionLink>
      </div>
    </section>
  );
}

export const ErrorBoundary = PublicRouteError;

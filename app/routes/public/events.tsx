import type { Route } from "./+types/events";
import { listEventPage } from "~/.server/db/events";
import { publicMeta } from "~/components/public/meta";
import { EventCardList } from "~/components/public/event-card";
import { PageBanner } from "~/components/public/page-banner";
import { Pagination } from "~/components/public/pagination";
import { PublicRouteError } from "~/components/public/public-error";
import { StatusMessage } from "~/components/public/status";
import { FIRM } from "~/config/firm";
import { eventCardView, eventsHref, FORMAT_LABELS, parseEventFilters, practiceAreaLabel, type EventCardView, type EventFilters } from "~/lib/events";
import { parsePage } from "~/lib/pagination";
import { PRACTICE_AREAS } from "~/lib/practice";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts), by the query parameters it reads. Visit statistics count it by its path. */
export const handle = { pageCache: { params: ["area", "format", "page"] }, statistics: "path" } satisfies RouteHandle;

/** The page's name: its banner's heading and the start of its title. */
const TITLE = "Events & Webinars";

export const EMPTY_EVENTS = "No events match these filters. Please check back shortly.";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = parseEventFilters(url.searchParams);
  const result = await listEventPage({ filters, page: parsePage(url.searchParams.get("page")) });
  return {
    filters,
    page: result.page,
    pageCount: result.pageCount,
    events: result.items.map(eventCardView),
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const page = loaderData?.page ?? 1;
  const filters = loaderData?.filters ?? { area: "all", format: "all" };
  const parts = [filters.area !== "all" ? practiceAreaLabel(filters.area) : "", filters.format !== "all" ? FORMAT_LABELS[filters.format] : ""].filter(Boolean);
  return publicMeta(matches, {
    title: `${TITLE}${parts.length ? ` — ${parts.join(", ")}` : ""}${page > 1 ? `, page ${page}` : ""}`,
    description: `Seminars and webinars from ${FIRM.name} on insurance defence, construction disputes and cyber incidents, with CPD hours for Ontario lawyers.`,
    path: eventsHref(filters, page),
  });
}

const filterLink =
  "inline-block border-b-2 border-transparent py-3 text-sm font-semibold tracking-[0.12em] text-muted uppercase hover:text-ink aria-[current=page]:border-accent aria-[current=page]:text-accent";

/** The choices of each filter row, "all" (no filter) first: the value in the address and the link's text. */
const AREA_CHOICES: Record<string, string> = { all: "All areas", ...Object.fromEntries(PRACTICE_AREAS.map((a) => [a, a])) };
const FORMAT_CHOICES: Record<string, string> = { all: "All formats", ...FORMAT_LABELS };

/** One row of filter links (practice area or format); each link keeps the other row's choice. */
function FilterRow({
  name,
  filters,
  label,
  title,
  choices,
}: {
  name: keyof EventFilters;
  filters: EventFilters;
  label: string;
  title: string;
  choices: Record<string, string>;
}) {
  return (
    <nav aria-label={label} className="mt-6 border-b border-line first:mt-0">
      <p aria-hidden="true" className="text-xs font-semibold text-muted">
        {title}
      </p>
      <ul className="-mb-px flex flex-wrap gap-x-6 gap-y-1" data-arrow-keys="">
        {Object.entries(choices).map(([value, text]) => (
          <li key={value}>
            <a
              href={eventsHref({ ...filters, [name]: value })}
              aria-current={value === filters[name] ? "page" : undefined}
              className={filterLink}
            >
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function Events({ loaderData }: Route.ComponentProps) {
  const { filters, page, pageCount, events } = loaderData;
  const upcoming = events.filter((e) => !e.past);
  const past = events.filter((e) => e.past);
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner
        eyebrow="Insights"
        title={TITLE}
        text="Seminars and webinars for claims teams, owners, contractors and in-house counsel. Ontario lawyers attending may claim CPD hours."
      />
      <div className="mx-auto max-w-7xl px-5 py-16 lg:px-8" data-keep-focus="filters">
        <FilterRow name="area" filters={filters} label="Filter events by practice area" title="Practice area" choices={AREA_CHOICES} />
        <FilterRow name="format" filters={filters} label="Filter events by format" title="Format" choices={FORMAT_CHOICES} />
        {events.length === 0 ? (
          <StatusMessage>{EMPTY_EVENTS}</StatusMessage>
        ) : (
          <>
            {upcoming.length ? <EventList heading="Upcoming events" events={upcoming} /> : null}
            {past.length ? <EventList heading="Past events and recordings" events={past} /> : null}
            <Pagination page={page} pageCount={pageCount} href={(p) => eventsHref(filters, p)} />
          </>
        )}
      </div>
    </main>
  );
}

function EventList({ heading, events }: { heading: string; events: EventCardView[] }) {
  return (
    <section aria-label={heading} className="mt-12">
      <h2 className="text-2xl font-semibold">{heading}</h2>
      <EventCardList events={events} />
    </section>
  );
}

export const ErrorBoundary = PublicRouteError;

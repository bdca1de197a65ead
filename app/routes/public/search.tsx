import type { Route } from "./+types/search";
import { searchSite } from "~/.server/db/search";
import { publicMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { Pagination } from "~/components/public/pagination";
import { PublicRouteError } from "~/components/public/public-error";
import { parsePage } from "~/lib/pagination";
import { MAX_QUERY_LENGTH, parseSearchKind, SEARCH_PAGE_SIZE, type HighlightPart, type SearchKind } from "~/lib/search";
import type { RouteHandle } from "~/lib/route-handle";

/**
 * `/search?q=…&kind=…&page=…` (decision 0013): rendered on the server, a
 * plain GET form, filters and pages are links. Not kept in the page cache
 * (its path is not a cached public path: every query is another page); the
 * response is `private, no-store` like every uncached page.
 */
const KIND_LABELS: Record<SearchKind, string> = {
  all: "All results",
  lawyers: "Lawyers",
  insights: "Insights",
  practice: "Practice areas",
};
const KIND_ORDER: SearchKind[] = ["all", "lawyers", "insights", "practice"];

function searchHref(q: string, kind: SearchKind, page = 1): string {
  const params = new URLSearchParams({ q });
  if (kind !== "all") params.set("kind", kind);
  if (page > 1) params.set("page", String(page));
  return `/search?${params.toString()}`;
}

/** Visit statistics count it by its path (the search term is kept apart, from its first page). */
export const handle = { statistics: "path" } satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // PostgreSQL text holds no NUL; other control characters are just not words.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern removes.
  const typed = (url.searchParams.get("q") ?? "").replace(/[\u0000-\u001f\u007f]/g, " ");
  const q = typed.trim().slice(0, MAX_QUERY_LENGTH);
  const kind = parseSearchKind(url.searchParams.get("kind"));
  const result = await searchSite(q, { kind, page: parsePage(url.searchParams.get("page")) });
  return { q, kind, shortened: typed.trim().length > MAX_QUERY_LENGTH, ...result };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return publicMeta(matches, {
    title: loaderData?.q ? searchStatus({ ...loaderData, q: loaderData.q.slice(0, 60) }) : "Search",
    description: "Search the lawyers, insights and practice areas of the firm.",
    path: "/search",
    noindex: true,
  });
}

function Marked({ parts }: { parts: HighlightPart[] }) {
  return (
    <>
      {parts.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </>
  );
}

/**
 * What the search found, in words: shown in the page's status region and at the
 * start of its title (a screen reader reads the title when the results page
 * loads; a live region filled before the load is not announced).
 */
function searchStatus(data: Pick<Route.ComponentProps["loaderData"], "q" | "kind" | "terms" | "counts" | "total" | "more" | "page" | "pageCount" | "items" | "nearMatches">): string {
  const { q, kind, terms, counts, total, more, page, pageCount, items, nearMatches } = data;
  const all = counts.lawyers + counts.insights + counts.practice;
  const quoted = `“${q}”`;
  const first = (page - 1) * SEARCH_PAGE_SIZE + 1;
  if (!q) return "Type a name, a subject or a few words and press Search.";
  if (terms.length === 0 || all === 0) return `No results for ${quoted}`;
  if (total === 0) return `No ${KIND_LABELS[kind].toLowerCase()} for ${quoted}`;
  return `${total.toLocaleString("en-CA")}${more ? "+" : ""} ${total === 1 && !more ? "result" : "results"} for ${quoted}${nearMatches ? " (close matches)" : ""}${
    pageCount > 1 ? `, ${first}–${first + items.length - 1} shown` : ""
  }`;
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, kind, terms, counts, more, page, pageCount, items, shortened } = loaderData;
  const searched = terms.length > 0;
  const all = counts.lawyers + counts.insights + counts.practice;
  const countOf = (k: SearchKind) => (k === "all" ? all : counts[k]);
  const status = searchStatus(loaderData);

  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Search" title="Search the site" />
      <div className="mx-auto max-w-4xl px-5 py-12 lg:px-8">
        <form method="get" action="/search" role="search" aria-label="Site search" data-search-page="" className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1 basis-64">
            <label htmlFor="search-q" className="block text-sm font-semibold text-ink">
              Search lawyers, insights and practice areas
            </label>
            <input
              id="search-q"
              type="search"
              name="q"
              defaultValue={q}
              maxLength={MAX_QUERY_LENGTH}
              autoComplete="off"
              enterKeyHint="search"
              aria-describedby="search-status"
              className="mt-2 h-12 w-full rounded border border-muted bg-white px-3 text-base text-ink"
            />
          </div>
          {kind !== "all" ? <input type="hidden" name="kind" value={kind} /> : null}
          <button type="submit" className="h-12 rounded bg-accent px-6 text-sm font-semibold tracking-[0.12em] text-white uppercase hover:bg-accent-dark">
            Search
          </button>
        </form>
        {shortened ? <p className="mt-3 text-sm text-muted">Only the first {MAX_QUERY_LENGTH} characters were searched.</p> : null}

        {/* data-search-results: what the visit statistics count for this term (app/enhance/stats.ts). */}
        <div role="status" id="search-status" className="mt-10" data-search-results={q ? (searched ? all : 0) : undefined}>
          <h2 className="text-2xl font-semibold text-ink">{status}</h2>
        </div>

        {searched && all > 0 ? (
          <nav aria-label="Kind of result" className="mt-6 border-b border-line" data-keep-focus="search-kinds">
            <ul className="-mb-px flex flex-wrap gap-x-6 gap-y-1" data-arrow-keys="">
              {KIND_ORDER.map((k) => (
                <li key={k}>
                  <a
                    href={searchHref(q, k)}
                    aria-current={k === kind ? "page" : undefined}
                    className="inline-block border-b-2 border-transparent py-3 text-sm font-semibold tracking-[0.08em] text-muted uppercase hover:text-ink aria-[current=page]:border-accent aria-[current=page]:text-accent"
                  >
                    {KIND_LABELS[k]}{" "}
                    <span className="font-normal">
                      ({countOf(k).toLocaleString("en-CA")}
                      {more && (k === "all" || k === "insights") ? "+" : ""})
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}

        {q && (!searched || all === 0) ? (
          <p className="mt-6 text-lg text-muted">
            Try other words, or browse <a href="/team" className="text-accent underline">our team</a> and{" "}
            <a href="/insights" className="text-accent underline">news &amp; insights</a>.
          </p>
        ) : null}

        {items.length > 0 ? (
          <ol className="mt-8 space-y-8" aria-label="Results">
            {items.map((item) => (
              <li key={item.href}>
                <article aria-labelledby={`r-${item.kind}-${item.href.replace(/[^A-Za-z0-9-]/g, "_")}`}>
                  <p className="text-xs font-semibold tracking-[0.14em] text-brass uppercase">
                    {KIND_LABELS[item.kind]}
                    {item.detail ? <span className="font-normal tracking-normal text-muted normal-case"> · {item.detail}</span> : null}
                  </p>
                  <h3 id={`r-${item.kind}-${item.href.replace(/[^A-Za-z0-9-]/g, "_")}`} className="mt-1 text-xl font-semibold">
                    <a href={item.href} className="text-ink underline-offset-4 hover:underline">
                      <Marked parts={item.title} />
                    </a>
                  </h3>
                  {item.extract.length ? (
                    <p className="mt-2 leading-7 text-muted">
                      <Marked parts={item.extract} />
                    </p>
                  ) : null}
                </article>
              </li>
            ))}
          </ol>
        ) : null}
        <Pagination page={page} pageCount={pageCount} href={(p) => searchHref(q, kind, p)} />
      </div>
    </main>
  );
}

export const ErrorBoundary = PublicRouteError;

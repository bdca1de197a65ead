import type { Route } from "./+types/insights";
import { listArticlePage } from "~/.server/db/articles";
import { getPageHeaderText } from "~/.server/db/page-headers";
import { ArticleGrid } from "~/components/public/article-card";
import { publicMeta } from "~/components/public/meta";
import { PageBanner } from "~/components/public/page-banner";
import { Pagination } from "~/components/public/pagination";
import { PublicRouteError } from "~/components/public/public-error";
import { EMPTY_ARTICLES, StatusMessage } from "~/components/public/status";
import { FIRM } from "~/config/firm";
import { parsePage } from "~/lib/pagination";
import { ARTICLE_FILTERS, type ArticleFilter } from "~/lib/practice";
import { insightsHref, parseArticleFilter } from "~/lib/site";

const FILTER_LABELS: Record<ArticleFilter, string> = {
  all: "all articles",
  insurance: "insurance",
  construction: "construction",
  cyber: "cyber",
  news: "news",
  events: "events",
};

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filter = parseArticleFilter(url.searchParams.get("category"));
  const requested = parsePage(url.searchParams.get("page"));
  const [headerText, result] = await Promise.all([getPageHeaderText("news"), listArticlePage({ filter, page: requested })]);
  return {
    headerText,
    filter,
    page: result.page,
    pageCount: result.pageCount,
    total: result.total,
    articles: result.items.map(({ id, slug, title, date, category, img, news }) => ({ id, slug, title, date, category, img, news })),
  };
}

export function meta({ matches, data }: Route.MetaArgs) {
  const filter = data?.filter ?? "all";
  const page = data?.page ?? 1;
  const label = filter === "all" ? "" : ` — ${FILTER_LABELS[filter][0]!.toUpperCase()}${FILTER_LABELS[filter].slice(1)}`;
  return publicMeta(matches, {
    title: `News & Insights${label}${page > 1 ? `, page ${page}` : ""}`,
    description: `Decisions, developments and events from the insurance defence, construction and cyber practices of ${FIRM.name}.`,
    path: insightsHref(filter, page),
  });
}

export default function Insights({ loaderData }: Route.ComponentProps) {
  const { filter, page, pageCount, articles, headerText } = loaderData;
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Insights" title="News & Insights" text={headerText} />
      <div className="mx-auto max-w-7xl px-5 py-16 lg:px-8">
        <nav aria-label="Filter articles" className="border-b border-line" data-keep-focus="filters">
          <ul className="-mb-px flex flex-wrap gap-x-6 gap-y-1" data-arrow-keys="">
            {ARTICLE_FILTERS.map((f) => (
              <li key={f}>
                <a
                  href={insightsHref(f)}
                  aria-current={f === filter ? "page" : undefined}
                  className="inline-block border-b-2 border-transparent py-3 text-sm font-semibold tracking-[0.12em] text-muted uppercase hover:text-ink aria-[current=page]:border-accent aria-[current=page]:text-accent"
                >
                  {FILTER_LABELS[f]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-label="Articles" className="mt-12">
          {articles.length === 0 ? (
            <StatusMessage>{EMPTY_ARTICLES}</StatusMessage>
          ) : (
            <>
              <ArticleGrid articles={articles} eagerCount={1} />
              <Pagination page={page} pageCount={pageCount} href={(p) => insightsHref(filter, p)} />
            </>
          )}
        </section>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <PublicRouteError />;
}

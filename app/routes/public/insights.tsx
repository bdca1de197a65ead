import { data, redirect } from "react-router";
import type { Route } from "./+types/insights";
import { cardSummary } from "~/.server/content/article-text";
import { listArticlePage } from "~/.server/db/articles";
import { findMovedSlug } from "~/.server/db/slug-lookup";
import { getTeamMemberBySlug } from "~/.server/db/team";
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
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts), by the query parameters it reads. */
export const handle = { pageCache: { params: ["author", "category", "page"] }, statistics: "path" } satisfies RouteHandle;

const AUTHOR_NOT_FOUND = { title: "Author not found", message: "No lawyer of the firm goes by that name any more. Our news & insights page lists every article." };

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
  // ?author={lawyer slug}: that lawyer's articles (a public member only, visibility.ts).
  const authorSlug = url.searchParams.get("author");
  let author: { id: number; slug: string; full_name: string } | null = null;
  if (authorSlug !== null) {
    const member = authorSlug.length <= 200 ? await getTeamMemberBySlug(authorSlug) : undefined;
    if (!member) {
      // A renamed lawyer's old link: 301 to the current one; anything else is a 404, never an empty list that search engines keep.
      const moved = authorSlug.length <= 200 && !authorSlug.includes("\0") ? await findMovedSlug("lawyer", authorSlug) : undefined;
      if (moved) throw redirect(insightsHref(filter, requested, moved), 301);
      throw data({ message: AUTHOR_NOT_FOUND.message }, { status: 404 });
    }
    author = { id: member.id, slug: member.slug, full_name: member.full_name };
  }
  const [headerText, result] = await Promise.all([
    getPageHeaderText("news"),
    listArticlePage({ filter, page: requested, ...(author ? { authorId: author.id } : {}) }),
  ]);
  return {
    headerText,
    author: author ? { slug: author.slug, full_name: author.full_name } : null,
    filter,
    page: result.page,
    pageCount: result.pageCount,
    total: result.total,
    articles: result.items.map((a) => ({ id: a.id, slug: a.slug, title: a.title, date: a.date, category: a.category, img: a.img, news: a.news, summary: cardSummary(a) })),
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const filter = loaderData?.filter ?? "all";
  const page = loaderData?.page ?? 1;
  const label = filter === "all" ? "" : ` — ${FILTER_LABELS[filter][0].toUpperCase()}${FILTER_LABELS[filter].slice(1)}`;
  const author = loaderData?.author ?? null;
  return publicMeta(matches, {
    title: `News & Insights${author ? ` by ${author.full_name}` : ""}${label}${page > 1 ? `, page ${page}` : ""}`,
    description: author
      ? `Articles by ${author.full_name} of ${FIRM.name}: decisions, developments and events in insurance defence, construction and cyber.`
      : `Decisions, developments and events from the insurance defence, construction and cyber practices of ${FIRM.name}.`,
    path: insightsHref(filter, page, author?.slug),
    // An error page (an unknown author) is not indexed.
    noindex: loaderData ? undefined : true,
  });
}

export default function Insights({ loaderData }: Route.ComponentProps) {
  const { filter, page, pageCount, articles, headerText, author } = loaderData;
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <PageBanner eyebrow="Insights" title="News & Insights" text={headerText}>
        <p className="mt-6">
          <a href="/subscribe" className="font-semibold text-brass-light underline underline-offset-4 hover:text-white">
            Receive insights by e-mail
          </a>
          <span aria-hidden="true" className="px-3 text-white/60">
            ·
          </span>
          <a href="/events" className="font-semibold text-brass-light underline underline-offset-4 hover:text-white">
            Events &amp; webinars
          </a>
        </p>
      </PageBanner>
      <div className="mx-auto max-w-7xl px-5 py-16 lg:px-8">
        {author ? (
          <div className="mb-8 flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
            <h2 className="text-2xl font-semibold">
              Insights by{" "}
              <a href={`/lawyer/${encodeURIComponent(author.slug)}`} className="text-accent hover:underline">
                {author.full_name}
              </a>
            </h2>
            <a href={insightsHref(filter)} className="text-sm font-semibold text-accent hover:underline">
              Articles by all authors
            </a>
          </div>
        ) : null}
        <nav aria-label="Filter articles" className="border-b border-line" data-keep-focus="filters">
          <ul className="-mb-px flex flex-wrap gap-x-6 gap-y-1" data-arrow-keys="">
            {ARTICLE_FILTERS.map((f) => (
              <li key={f}>
                <a
                  href={insightsHref(f, 1, author?.slug)}
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
              <ArticleGrid articles={articles} eagerCount={1} headingLevel={author ? 3 : 2} />
              <Pagination page={page} pageCount={pageCount} href={(p) => insightsHref(filter, p, author?.slug)} />
            </>
          )}
        </section>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <PublicRouteError notFound={AUTHOR_NOT_FOUND} />;
}

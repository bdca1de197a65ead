import { Picture } from "./picture";

export type ArticleCardData = {
  id: number;
  slug: string;
  title: string;
  date: string;
  category: string;
  img?: string;
  news?: boolean;
  priority?: boolean;
  /** The article's summary, or the start of its body (cardSummary, app/.server/content/article-text.ts). */
  summary?: string;
};

export function categoryLabel(category: string): string {
  const c = category.trim().toLowerCase();
  return c ? c[0].toUpperCase() + c.slice(1) : "";
}

/** One article preview, named by its title (each card of a list has its own name); the title link covers the whole card. */
export function ArticleCard({
  article,
  headingLevel = 2,
  withImage = true,
  eager = false,
}: {
  article: ArticleCardData;
  headingLevel?: 2 | 3;
  withImage?: boolean;
  /** The first picture of a list, in the first view on phones: fetched at once, with high priority (LCP). */
  eager?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const titleId = `article-${article.id}-title`;
  return (
    <article aria-labelledby={titleId} className="group relative flex h-full flex-col border border-line bg-white transition-shadow hover:shadow-[0_8px_30px_rgba(19,35,58,0.08)]">
      {withImage ? (
        <Picture
          place="articleCard"
          img={article.img}
          alt=""
          loading={eager ? "eager" : "lazy"}
          fetchPriority={eager ? "high" : undefined}
          decoding="async"
          className="aspect-video w-full bg-soft object-cover"
        />
      ) : null}
      <div className="flex flex-1 flex-col p-6">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs font-semibold tracking-[0.14em] text-brass uppercase">
          <span>{categoryLabel(article.category)}</span>
          {article.news ? <span className="text-accent">News</span> : null}
        </p>
        <Heading id={titleId} className="mt-3 text-xl leading-snug font-semibold">
          <a href={`/post/${encodeURIComponent(article.slug)}`} className="after:absolute after:inset-0 group-hover:text-accent group-hover:underline">
            {article.title}
          </a>
        </Heading>
        {article.summary ? <p className="mt-3 line-clamp-3 leading-relaxed text-ink/80">{article.summary}</p> : null}
        {article.date ? <p className="mt-auto pt-5 text-sm text-muted">{article.date}</p> : null}
      </div>
    </article>
  );
}

export function ArticleGrid({ articles, headingLevel = 2, eagerCount = 0 }: { articles: ArticleCardData[]; headingLevel?: 2 | 3; eagerCount?: number }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {articles.map((article, index) => (
        <li key={article.id}>
          <ArticleCard article={article} headingLevel={headingLevel} eager={index < eagerCount} />
        </li>
      ))}
    </ul>
  );
}

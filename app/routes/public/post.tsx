import { data, redirect } from "react-router";
import type { Route } from "./+types/post";
import { getArticleBySlug } from "~/.server/db/articles";
import { listPublicAuthors } from "~/.server/db/article-authors";
import { articleDescription, articleSeoTitle } from "~/.server/content/article-text";
import { findMovedSlug } from "~/.server/db/slug-lookup";
import { getEnv } from "~/.server/env";
import { PREVIEW_BANNER, PREVIEW_CACHE_CONTROL, previewArticle } from "~/.server/content/preview";
import { sanitizeArticleHtml } from "~/.server/content/sanitize";
import { categoryLabel } from "~/components/public/article-card";
import { publicMeta } from "~/components/public/meta";
import { Picture } from "~/components/public/picture";
import { PreviewBanner } from "~/components/public/preview-banner";
import { PublicRouteError } from "~/components/public/public-error";
import { responsiveBodyPictures } from "~/lib/body-pictures";
import { hasImage } from "~/lib/images";
import { DEFAULT_SOCIAL_IMAGE, socialImagePath } from "~/lib/social";
import { articleJsonLd, breadcrumbJsonLd } from "~/lib/structured-data";
import type { RouteHandle } from "~/lib/route-handle";
import { BackLink } from "~/components/public/back-link";
import { ArticleBanner } from "~/components/public/page-banner";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. Visit statistics count it by its path. */
export const handle = { pageCache: { params: [] }, statistics: "path" } satisfies RouteHandle;

const NOT_FOUND = "No Article Found";

export async function loader({ request, params }: Route.LoaderArgs) {
  // A staff or shared preview (any state, never cached), or the public page (published only).
  const preview = await previewArticle(request, params.slug, { message: NOT_FOUND });
  const article = preview ?? (await getArticleBySlug(params.slug));
  if (!article) {
    // An old link (other case or spelling, or a title since changed): 301 to the current page.
    const moved = await findMovedSlug("post", params.slug);
    if (moved) throw redirect(`/post/${encodeURIComponent(moved)}`, 301);
    throw data({ message: NOT_FOUND }, { status: 404 });
  }
  // Sanitised again at render time, whatever was stored.
  const html = sanitizeArticleHtml(article.copy);
  // The SEO description, else the summary, else the body's start (article-text.ts).
  const description = articleDescription(article, html);
  // Only authors the public may see (visibility.ts), previews included.
  const authors = (await listPublicAuthors(article.id)).map(({ slug, full_name }) => ({ slug, full_name }));
  const site = getEnv().publicUrl;
  const jsonLd = [
    articleJsonLd(site, { ...article, created_at: article.published_at ?? article.created_at, description, authors }),
    breadcrumbJsonLd(site, [
      { name: "Home", path: "/" },
      { name: "News & Insights", path: "/insights" },
      { name: article.title, path: `/post/${encodeURIComponent(article.slug)}` },
    ]),
  ];
  const page = {
    jsonLd: preview ? [] : jsonLd,
    preview: preview ? PREVIEW_BANNER : null,
    article: {
      slug: article.slug,
      title: article.title,
      date: article.date,
      category: article.category,
      news: article.news,
      img: article.img,
      // Body pictures become responsive <picture>s (lazy, width/height, AVIF and WebP widths).
      html: responsiveBodyPictures(html, getEnv().pictureBase),
      description,
      seoTitle: articleSeoTitle(article),
      socialImg: hasImage(article.social_img) ? article.social_img : article.img,
      authors,
      // Authors named only as text (an imported article whose author is not on the team).
      byline: authors.length ? "" : article.byline,
    },
  };
  return preview ? data(page, { headers: { "Cache-Control": PREVIEW_CACHE_CONTROL } }) : page;
}

/** Previews are never stored by the page cache, a proxy or a CDN. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : {};
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  if (!loaderData) return publicMeta(matches, { title: NOT_FOUND, description: NOT_FOUND, path: `/post/${params.slug}`, noindex: true });
  const a = loaderData.article;
  const image = socialImagePath("articles", a.socialImg);
  return publicMeta(matches, {
    noindex: loaderData.preview ? true : undefined,
    title: a.seoTitle,
    description: a.description,
    path: `/post/${encodeURIComponent(a.slug)}`,
    type: "article",
    image: image === DEFAULT_SOCIAL_IMAGE ? undefined : { path: image, alt: a.title },
    jsonLd: loaderData.jsonLd,
  });
}

export default function Post({ loaderData }: Route.ComponentProps) {
  const a = loaderData.article;
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      {loaderData.preview ? <PreviewBanner text={loaderData.preview} /> : null}
      <article>
        <ArticleBanner back={{ href: "/insights", text: "News & Insights" }} kicker={a.news ? [categoryLabel(a.category), "News"] : [categoryLabel(a.category)]} title={a.title}>
          {a.authors.length ? (
            <p className="mt-5 text-white/85">
              By{" "}
              {a.authors.map((author, i) => (
                <span key={author.slug}>
                  {i === 0 ? "" : i === a.authors.length - 1 ? " and " : ", "}
                  <a href={`/lawyer/${encodeURIComponent(author.slug)}`} className="font-semibold text-white underline decoration-brass-light underline-offset-4 hover:decoration-2">
                    {author.full_name}
                  </a>
                </span>
              ))}
            </p>
          ) : a.byline ? (
            <p className="mt-5 text-white/85">By {a.byline}</p>
          ) : null}
          {a.date ? <p className={a.authors.length || a.byline ? "mt-1 text-white/85" : "mt-5 text-white/85"}>{a.date}</p> : null}
        </ArticleBanner>
        <div className="mx-auto max-w-3xl px-5 py-12">
          {hasImage(a.img) ? (
            <Picture
              place="articleLead"
              img={a.img}
              alt=""
              fetchPriority="high"
              className="mb-10 aspect-video w-full bg-soft object-cover"
            />
          ) : null}
          <div className="prose-article text-lg text-ink/90" dangerouslySetInnerHTML={{ __html: a.html }} />
          <aside aria-label="Subscribe" className="mt-16 border-l-4 border-brass bg-soft px-5 py-4">
            <p className="text-ink">
              Receive client alerts like this one by e-mail.{" "}
              <a href="/subscribe" className="font-semibold text-accent underline underline-offset-4">
                Subscribe to insights
              </a>
            </p>
          </aside>
          <BackLink href="/insights" place="foot">
            All news &amp; insights
          </BackLink>
        </div>
      </article>
    </main>
  );
}

export function ErrorBoundary() {
  return <PublicRouteError notFound={{ title: NOT_FOUND, message: "The article may have been renamed or removed. Our news & insights page lists every article." }} />;
}

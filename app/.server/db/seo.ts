/** Queries for the sitemap and the RSS feed. */
import { desc, max } from "drizzle-orm";
import { db } from "./client";
import { articles, headers, hours, team } from "./schema";

export const SITEMAP_ARTICLE_LIMIT = 45_000;

export async function sitemapEntries() {
  const [members, posts, contentDates] = await Promise.all([
    db().select({ slug: team.slug, updated_at: team.updated_at }).from(team),
    db()
      .select({ slug: articles.slug, updated_at: articles.updated_at })
      .from(articles)
      .orderBy(desc(articles.created_at), desc(articles.id))
      .limit(SITEMAP_ARTICLE_LIMIT),
    Promise.all([
      db().select({ at: max(team.updated_at) }).from(team),
      db().select({ at: max(articles.updated_at) }).from(articles),
      db().select({ at: max(headers.updated_at) }).from(headers),
      db().select({ at: max(hours.updated_at) }).from(hours),
    ]),
  ]);
  const [t, a, h, o] = contentDates.map(([r]) => r?.at ?? null);
  return { members, posts, latest: { team: t, articles: a, headers: h, hours: o } };
}

export async function latestArticlesForFeed(limit = 20) {
  return db()
    .select({
      slug: articles.slug,
      title: articles.title,
      category: articles.category,
      copy: articles.copy,
      created_at: articles.created_at,
      updated_at: articles.updated_at,
    })
    .from(articles)
    .orderBy(desc(articles.created_at), desc(articles.id))
    .limit(limit);
}

/** Queries for the sitemap and the RSS feed. */
import { and, desc, like, max, or } from "drizzle-orm";
import type { ImageKind } from "~/lib/images";
import { db } from "./client";
import { memoUntilContentChange } from "./memo";
import { articles, headers, hours, team } from "./schema";
import { articleIsPublic, teamMemberIsPublic } from "./visibility";

export const SITEMAP_ARTICLE_LIMIT = 45_000;

export async function sitemapEntries() {
  const [members, posts, contentDates] = await Promise.all([
    db().select({ slug: team.slug, updated_at: team.updated_at }).from(team).where(teamMemberIsPublic()),
    db()
      .select({ slug: articles.slug, updated_at: articles.updated_at })
      .from(articles)
      .where(articleIsPublic())
      .orderBy(desc(articles.published_at), desc(articles.id))
      .limit(SITEMAP_ARTICLE_LIMIT),
    Promise.all([
      db()
        .select({ at: max(team.updated_at) })
        .from(team)
        .where(teamMemberIsPublic()),
      db()
        .select({ at: max(articles.updated_at) })
        .from(articles)
        .where(articleIsPublic()),
      db()
        .select({ at: max(headers.updated_at) })
        .from(headers),
      db()
        .select({ at: max(hours.updated_at) })
        .from(hours),
    ]),
  ]);
  const [t, a, h, o] = contentDates.map(([r]) => r?.at ?? null);
  return { members, posts, latest: { team: t, articles: a, headers: h, hours: o } };
}

/** What the RSS feed says of an article: its address, title, category, text and dates. */
const feedColumns = {
  slug: articles.slug,
  title: articles.title,
  category: articles.category,
  summary: articles.summary,
  copy: articles.copy,
  created_at: articles.created_at,
  published_at: articles.published_at,
  updated_at: articles.updated_at,
};

export async function latestArticlesForFeed(limit = 20) {
  return db()
    .select(feedColumns)
    .from(articles)
    .where(articleIsPublic())
    .orderBy(desc(articles.published_at), desc(articles.id))
    .limit(limit);
}

/** Whether a stored picture (by its stem) belongs to a public member or article, its picture or its social picture (link-preview pictures). */
export async function isPublicPicture(kind: ImageKind, stem: string): Promise<boolean> {
  const pattern = `${stem.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;
  const rows =
    kind === "team"
      ? await db()
          .select({ id: team.id })
          .from(team)
          .where(and(like(team.img, pattern), teamMemberIsPublic()))
          .limit(1)
      : await db()
          .select({ id: articles.id })
          .from(articles)
          .where(and(or(like(articles.img, pattern), like(articles.social_img, pattern)), articleIsPublic()))
          .limit(1);
  return rows.length > 0;
}

/**
 * The paths of every lawyer's profile and article the public can open, kept
 * until the next content change: the visit statistics count no other page
 * whose route has a parameter (a made-up slug is counted as not found).
 */
export const publishedPagePaths = memoUntilContentChange(async (): Promise<ReadonlySet<string>> => {
  const [members, posts] = await Promise.all([
    db().select({ slug: team.slug }).from(team).where(teamMemberIsPublic()),
    db().select({ slug: articles.slug }).from(articles).where(articleIsPublic()),
  ]);
  return new Set([
    ...members.map((m) => `/lawyer/${encodeURIComponent(m.slug)}`),
    ...posts.map((p) => `/post/${encodeURIComponent(p.slug)}`),
  ]);
});

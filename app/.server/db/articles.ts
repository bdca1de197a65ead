/** Queries for articles (table `articles`). */
import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from "drizzle-orm";
import { articleSlug } from "~/lib/slug";
import { clampPage, pageCount, pageOffset, PAGE_SIZE } from "~/lib/pagination";
import { readPage } from "./rows";
import type { ArticleFilter } from "~/lib/practice";
import { fieldChanges, recordAudit, saveAction, type Actor, recordMovedToTrash } from "./audit";
import { contentChanged, onContentChange } from "./content-events";
import { db } from "./client";
import { articles, type ArticleRow } from "./schema";
import { escapeLike, freeSlug, withSlugRetry } from "./slugs";
import { articleIsPublic, articleNotTrashed, type ArticleState } from "./visibility";
import { checkVersion, recordRevision } from "./revisions";
import { publishDue } from "./scheduled-publishing";
import { articleDateText } from "~/lib/dates";
import { articlesByAuthor, authorNames, authorsOf, setAuthors } from "./article-authors";

export type Article = ArticleRow;

export type ArticleInput = {
  title: string;
  img: string;
  category: string;
  news: boolean;
  priority: boolean;
  copy: string;
  /** Left out (undefined): kept as stored. */
  summary?: string;
  seo_title?: string;
  seo_description?: string;
  social_img?: string;
  /** Authors named as text (an imported article whose author is not on the team); left out: kept as stored. */
  byline?: string;
  /** Team member ids, in order; left out: the authors stay as they are. */
  authors?: readonly number[];
};

/** The state part of a save: draft, scheduled (with its time) or published (now, or kept when it already was). */
export type ArticleStateInput = { status: ArticleState; publishAt?: Date | null };

const previewColumns = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  date: articles.date,
  category: articles.category,
  img: articles.img,
  news: articles.news,
  priority: articles.priority,
  created_at: articles.created_at,
  published_at: articles.published_at,
  summary: articles.summary,
  /** The body's start, for a card's text when there is no summary (cardSummary in app/.server/content/article-text.ts). */
  excerpt: sql<string>`left(${articles.copy}, 1500)`,
};
export type ArticlePreview = Pick<Article, Exclude<keyof typeof previewColumns, "excerpt">> & { excerpt: string };

/** The home teaser: the most recently published articles. */
export async function listLatestArticles(limit = 6): Promise<ArticlePreview[]> {
  return db()
    .select(previewColumns)
    .from(articles)
    .where(articleIsPublic())
    .orderBy(desc(articles.published_at), desc(articles.id))
    .limit(limit);
}

function filterWhere(filter: ArticleFilter): SQL {
  if (filter === "all") return articleIsPublic();
  if (filter === "news") return and(articleIsPublic(), eq(articles.news, true))!;
  return and(articleIsPublic(), sql`lower(${articles.category}) = ${filter}`)!;
}

/**
 * Article counts per filter, kept until the next content change (here or,
 * through content-sync, in another process): counting 100,000 rows costs
 * tens of milliseconds, the page itself well under one.
 */
const counts = new WeakMap<object, Map<string, number>>();
onContentChange(() => {
  countsGeneration++;
});
let countsGeneration = 0;
const countsSeen = new WeakMap<object, number>();

async function countArticlesCached(filter: string, where: SQL): Promise<number> {
  const database = db();
  if (countsSeen.get(database) !== countsGeneration) {
    counts.set(database, new Map());
    countsSeen.set(database, countsGeneration);
  }
  const perFilter = counts.get(database)!;
  const known = perFilter.get(filter);
  if (known !== undefined) return known;
  const generation = countsGeneration;
  const [{ total } = { total: 0 }] = await database
    .select({ total: sql<number>`count(*)::int` })
    .from(articles)
    .where(where);
  if (generation === countsGeneration) perFilter.set(filter, total);
  return total;
}

export type ArticlePage = { items: ArticlePreview[]; total: number; page: number; pageCount: number };

/**
 * One page of articles, paged in the database. Pages in the second half of
 * the list are read from the other end of the index, so the last page costs
 * the same as the first however large the archive.
 */
export async function listArticlePage(options: {
  filter: ArticleFilter;
  page: number;
  pinnedFirst?: boolean;
  pageSize?: number;
  /** Only articles naming this team member as an author. */
  authorId?: number;
}): Promise<ArticlePage> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const author = options.authorId;
  const where =
    author === undefined ? filterWhere(options.filter) : and(filterWhere(options.filter), inArray(articles.id, articlesByAuthor(author)))!;
  const total = await countArticlesCached(author === undefined ? options.filter : `${options.filter}|author:${author}`, where);
  const page = clampPage(options.page, total, pageSize);
  const offset = pageOffset(page, pageSize);
  const keys = options.pinnedFirst ? [articles.priority, articles.published_at, articles.id] : [articles.published_at, articles.id];

  let items: ArticlePreview[];
  if (offset > total / 2) {
    const fromEnd = total - offset - pageSize;
    const limit = fromEnd < 0 ? pageSize + fromEnd : pageSize;
    items = (
      await db()
        .select(previewColumns)
        .from(articles)
        .where(where)
        .orderBy(...keys.map((k) => asc(k)))
        .limit(Math.max(0, limit))
        .offset(Math.max(0, fromEnd))
    ).reverse();
  } else {
    items = await db()
      .select(previewColumns)
      .from(articles)
      .where(where)
      .orderBy(...keys.map((k) => desc(k)))
      .limit(pageSize)
      .offset(offset);
  }
  return { items, total, page, pageCount: pageCount(total, pageSize) };
}

/** A public article by its URL (drafts, scheduled and trashed articles are not found). */
export async function getArticleBySlug(slug: string): Promise<Article | undefined> {
  // No slug holds a NUL (PostgreSQL would refuse the query with an error).
  if (slug.includes("\0")) return undefined;
  const [row] = await db()
    .select()
    .from(articles)
    .where(and(eq(articles.slug, slug), articleIsPublic()))
    .limit(1);
  return row;
}

/** Any article by its URL, whatever its state (staff previews). */
export async function getArticleBySlugForStaff(slug: string): Promise<Article | undefined> {
  if (slug.includes("\0")) return undefined;
  const [row] = await db().select().from(articles).where(eq(articles.slug, slug)).limit(1);
  return row;
}

/** An article for the dashboard (any state; trashed ones only with `withTrashed`). */
export async function getArticleById(id: number, options: { withTrashed?: boolean } = {}): Promise<Article | undefined> {
  const [row] = await db()
    .select()
    .from(articles)
    .where(options.withTrashed ? eq(articles.id, id) : and(eq(articles.id, id), articleNotTrashed()))
    .limit(1);
  return row;
}

/** Rows a page of the dashboard's article list (/dashboard/articles). */
export const ADMIN_ARTICLES_PAGE_SIZE = 50;

/**
 * Dashboard list: newest first; optional case-insensitive search on title;
 * one page of ADMIN_ARTICLES_PAGE_SIZE rows (a page past the end is the last).
 */
export async function listArticlesForAdmin(options: { search?: string; page?: number } = {}) {
  // PostgreSQL cannot hold a NUL character in text: a search for one is a search for the rest.
  const q = (options.search ?? "").replace(/\0/g, "").trim();
  const where = and(articleNotTrashed(), q ? ilike(articles.title, `%${escapeLike(q)}%`) : undefined);
  return readPage(articles, where, options.page ?? 1, ADMIN_ARTICLES_PAGE_SIZE, (limit, offset) =>
    db()
      .select({
        id: articles.id,
        slug: articles.slug,
        title: articles.title,
        category: articles.category,
        date: articles.date,
        news: articles.news,
        priority: articles.priority,
        status: articles.status,
        published_at: articles.published_at,
      })
      .from(articles)
      .where(where)
      .orderBy(desc(articles.created_at), desc(articles.id))
      .limit(limit)
      .offset(offset),
  );
}

/** Pin only means something for news (SPEC §4): not news forces it off. */
function normalise(input: ArticleInput) {
  const { title, img, category, news, priority, copy, summary, seo_title, seo_description, social_img, byline } = input;
  const optional = Object.fromEntries(
    Object.entries({ summary, seo_title, seo_description, social_img, byline }).filter(([, v]) => v !== undefined),
  ) as Partial<Pick<Article, "summary" | "seo_title" | "seo_description" | "social_img" | "byline">>;
  return { title, img, category, news, priority: news ? priority : false, copy, ...optional };
}

/**
 * The state columns a save writes. Published keeps the first publish time
 * (and its date text) when it already was published; otherwise it goes live now.
 * Scheduled keeps its time; draft clears it.
 */
export function stateColumns(state: ArticleStateInput, before?: Pick<Article, "status" | "published_at" | "date">, now = new Date()) {
  if (state.status === "draft") return { status: "draft", published_at: null, date: before?.date ?? "" };
  if (state.status === "scheduled") {
    const at = state.publishAt ?? now;
    return { status: "scheduled", published_at: at, date: articleDateText(at) };
  }
  if (before?.status === "published" && before.published_at)
    return { status: "published", published_at: before.published_at, date: before.date };
  const at = state.publishAt && state.publishAt <= now ? state.publishAt : now;
  return { status: "published", published_at: at, date: articleDateText(at) };
}

/** Adds an article, and its audit entry in the same transaction. */
/**
 * `state` defaults to published (at `created_at`, or now); `date` overrides the
 * shown date text (callers written before publish dates existed).
 */
export async function createArticle(
  input: ArticleInput & { state?: ArticleStateInput; created_at?: Date; date?: string; slug?: string },
  actor: Actor,
): Promise<Article> {
  const state = input.state ?? { status: "published", publishAt: input.created_at ?? null };
  const row = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      // `slug`: one chosen ahead (the WordPress import rewrites links to it), kept when still free.
      const slug = await freeSlug(tx, articles, input.slug ?? articleSlug(input.title));
      const [created] = await tx
        .insert(articles)
        .values({
          ...normalise(input),
          ...stateColumns(state, undefined, input.created_at),
          ...(input.date !== undefined ? { date: input.date } : {}),
          ...(input.created_at ? { created_at: input.created_at } : {}),
          slug,
        })
        .returning();
      const authors = await setAuthors(tx, created.id, input.authors ?? []);
      // Created straight onto the public site: a publish (the Activity screen's "publish" filter finds it).
      await recordAudit(tx, actor, {
        action: created.status === "published" ? "publish" : "create",
        itemType: "article",
        itemId: created.id,
        itemLabel: created.title,
        changes: fieldChanges(null, { ...created, authors: authorNames(authors) }, { ignore: ["id"] }),
      });
      await recordRevision(tx, "article", { ...created, authors }, actor);
      return created;
    }),
  );
  contentChanged("articles");
  return row;
}

/** Updates an article (and records it); returns the row before and after, or undefined. */
/**
 * `state` left out keeps the article's state. With `expectedVersion` (the
 * version the form was opened on) a save over someone else's newer save
 * throws EditConflict and writes nothing.
 */
export async function updateArticle(
  id: number,
  input: ArticleInput & { state?: ArticleStateInput; expectedVersion?: number },
  actor: Actor,
) {
  const result = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(articles)
        .where(and(eq(articles.id, id), articleNotTrashed()))
        .for("update");
      if (!before) return undefined;
      await checkVersion(tx, "article", id, before.version, input.expectedVersion);
      const authorsBefore = await authorsOf(tx, id);
      const slug = before.title === input.title ? before.slug : await freeSlug(tx, articles, articleSlug(input.title), id);
      const [after] = await tx
        .update(articles)
        .set({
          ...normalise(input),
          ...stateColumns(input.state ?? { status: before.status as ArticleState, publishAt: before.published_at }, before),
          slug,
          updated_at: new Date(),
          version: before.version + 1,
        })
        .where(eq(articles.id, id))
        .returning();
      const authors = input.authors === undefined ? authorsBefore : await setAuthors(tx, id, input.authors);
      // The diff is kept whatever the action.
      await recordAudit(tx, actor, {
        action: saveAction(before, after),
        itemType: "article",
        itemId: id,
        itemLabel: after.title,
        changes: fieldChanges({ ...before, authors: authorNames(authorsBefore) }, { ...after, authors: authorNames(authors) }),
      });
      await recordRevision(tx, "article", { ...after, authors }, actor);
      return { before, after: after };
    }),
  );
  if (result) contentChanged("articles");
  return result;
}

/**
 * Moves an article to the Trash (and records it): it leaves the public site
 * and the dashboard's list, keeps its URL and picture, and is removed for
 * good 30 days later (trash.ts). Returns the row, or undefined.
 */
export async function deleteArticle(id: number, actor: Actor): Promise<Article | undefined> {
  const row = await db().transaction(async (tx) => {
    const [trashed] = await tx
      .update(articles)
      .set({ deleted_at: new Date() })
      .where(and(eq(articles.id, id), articleNotTrashed()))
      .returning();
    if (trashed) await recordMovedToTrash(tx, actor, "article", id, trashed.title);
    return trashed;
  });
  if (row) contentChanged("articles");
  return row;
}

export async function countArticles(): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(articles);
  return row?.n ?? 0;
}

/** Scheduled articles whose time has come go live (the `scheduled-publishing` job: publishDue). */
export function publishDueArticles(actor: Actor, now = new Date()): Promise<Article[]> {
  return publishDue("article", actor, now, async (tx, row) => ({ ...row, authors: await authorsOf(tx, row.id) }));
}

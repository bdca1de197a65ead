/** Queries for articles (table `articles`). */
import { asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { articleSlug, uniqueSlug } from "~/lib/slug";
import { clampPage, pageCount, pageOffset, PAGE_SIZE } from "~/lib/pagination";
import type { ArticleFilter } from "~/lib/practice";
import { contentChanged, onContentChange } from "../content-events";
import { db, type Db } from "./client";
import { articles, type ArticleRow } from "./schema";
import { escapeLike, withSlugRetry } from "./team";

export type Article = ArticleRow;

export type ArticleInput = {
  title: string;
  img: string;
  category: string;
  news: boolean;
  priority: boolean;
  copy: string;
};

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
};
export type ArticlePreview = Pick<Article, keyof typeof previewColumns>;

/** The home teaser: the most recent articles. */
export async function listLatestArticles(limit = 6): Promise<ArticlePreview[]> {
  return db().select(previewColumns).from(articles).orderBy(desc(articles.created_at), desc(articles.id)).limit(limit);
}

function filterWhere(filter: ArticleFilter): SQL | undefined {
  if (filter === "all") return undefined;
  if (filter === "news") return eq(articles.news, true);
  return sql`lower(${articles.category}) = ${filter}`;
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

async function countArticlesCached(filter: ArticleFilter, where: SQL | undefined): Promise<number> {
  const database = db();
  if (countsSeen.get(database) !== countsGeneration) {
    counts.set(database, new Map());
    countsSeen.set(database, countsGeneration);
  }
  const perFilter = counts.get(database)!;
  const known = perFilter.get(filter);
  if (known !== undefined) return known;
  const generation = countsGeneration;
  const [{ total } = { total: 0 }] = await database.select({ total: sql<number>`count(*)::int` }).from(articles).where(where);
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
}): Promise<ArticlePage> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const where = filterWhere(options.filter);
  const total = await countArticlesCached(options.filter, where);
  const page = clampPage(options.page, total, pageSize);
  const offset = pageOffset(page, pageSize);
  const keys = options.pinnedFirst ? [articles.priority, articles.created_at, articles.id] : [articles.created_at, articles.id];

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

export async function getArticleBySlug(slug: string): Promise<Article | undefined> {
  // No slug holds a NUL (PostgreSQL would refuse the query with an error).
  if (slug.includes("\0")) return undefined;
  const [row] = await db().select().from(articles).where(eq(articles.slug, slug)).limit(1);
  return row;
}

export async function getArticleById(id: number): Promise<Article | undefined> {
  const [row] = await db().select().from(articles).where(eq(articles.id, id)).limit(1);
  return row;
}

/** Dashboard list: newest first; optional case-insensitive search on title. */
export async function listArticlesForAdmin(search = "", limit = 500) {
  // PostgreSQL cannot hold a NUL character in text: a search for one is a search for the rest.
  const q = search.replace(/\0/g, "").trim();
  return db()
    .select({ id: articles.id, slug: articles.slug, title: articles.title, category: articles.category, date: articles.date, news: articles.news, priority: articles.priority })
    .from(articles)
    .where(q ? ilike(articles.title, `%${escapeLike(q)}%`) : undefined)
    .orderBy(desc(articles.created_at), desc(articles.id))
    .limit(limit);
}

async function freeSlug(tx: Db, title: string, exceptId?: number): Promise<string> {
  const base = articleSlug(title);
  const rows = await tx
    .select({ id: articles.id, slug: articles.slug })
    .from(articles)
    .where(or(eq(articles.slug, base), ilike(articles.slug, `${escapeLike(base)}-%`)));
  return uniqueSlug(base, new Set(rows.filter((r) => r.id !== exceptId).map((r) => r.slug)));
}

/** Pin only means something for news (SPEC §4): not news forces it off. */
function normalise(input: ArticleInput): ArticleInput {
  return { ...input, priority: input.news ? input.priority : false };
}

export async function createArticle(input: ArticleInput & { date: string; created_at?: Date }): Promise<Article> {
  const row = await withSlugRetry(async () => {
    const slug = await freeSlug(db(), input.title);
    const [created] = await db()
      .insert(articles)
      .values({ ...input, ...normalise(input), slug })
      .returning();
    return created!;
  });
  contentChanged("articles");
  return row;
}

export async function updateArticle(id: number, input: ArticleInput) {
  const result = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const [before] = await tx.select().from(articles).where(eq(articles.id, id)).for("update");
      if (!before) return undefined;
      const slug = before.title === input.title ? before.slug : await freeSlug(tx, input.title, id);
      const [after] = await tx
        .update(articles)
        .set({ ...normalise(input), slug, updated_at: new Date() })
        .where(eq(articles.id, id))
        .returning();
      return { before, after: after! };
    }),
  );
  if (result) contentChanged("articles");
  return result;
}

export async function deleteArticle(id: number): Promise<Article | undefined> {
  const [row] = await db().delete(articles).where(eq(articles.id, id)).returning();
  if (row) contentChanged("articles");
  return row;
}

export async function countArticles(): Promise<number> {
  const [row] = await db().select({ n: sql<number>`count(*)::int` }).from(articles);
  return row?.n ?? 0;
}

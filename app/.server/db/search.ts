/**
 * Site search (/search, decision 0013): lawyers, articles and the three
 * practice pages in one ranked list, paged in the database.
 *
 * - Words: PostgreSQL full-text search on `search_vector`, a generated column
 *   of `team` and `articles` (migration 0007: kept current by the database;
 *   not in schema.ts, so only this module reads it), English stems plus the
 *   words as written, weighted A (name, title) > B (an article's summary
 *   (migration 0009), role, practice areas, fields of expertise) > C (bio, body). The last word is also a
 *   prefix ("as you type": `insura` finds insurance).
 * - A typo: when the words match nothing, names and titles are compared by
 *   trigram word similarity (pg_trgm; PGlite loads it as an extension).
 * - The practice pages are fixed text in the code (PRACTICE_COPY), copied
 *   into `search_pages` (vector generated there), with the editable header
 *   text of `headers` added in the query.
 * - Extracts and titles come from `ts_headline` with private-use characters
 *   as markers, split into text and <mark> by `highlightParts`; the page
 *   renders them as React text, so nothing in a bio or article is markup.
 * - Odd input never reaches the query parser: only letters and digits are
 *   kept (`searchTerms`), at most MAX_TERMS words of MAX_QUERY_LENGTH chars.
 */
import { rowsOf } from "./rows";
import { sql, type SQL } from "drizzle-orm";
import { PRACTICE_COPY } from "~/lib/practice-copy";
import { PRACTICE_AREAS, PRACTICE_PAGES } from "~/lib/practice";
import {
  MARK_END,
  MARK_START,
  SEARCH_PAGE_SIZE,
  highlightParts,
  searchTerms,
  tsQueryText,
  type HighlightPart,
  type ResultKind,
  type SearchKind,
} from "~/lib/search";
import { db } from "./client";
import { articleIsPublicAs, teamMemberIsPublicAs } from "./visibility";

export { highlightParts, parseSearchKind, searchTerms, tsQueryText, SEARCH_KINDS, SEARCH_PAGE_SIZE, MAX_QUERY_LENGTH } from "~/lib/search";
export type { HighlightPart, ResultKind, SearchKind } from "~/lib/search";

// ---- what is public ----
//
// Search shows what visibility.ts says the public may see: published articles
// and visible members, neither in the Trash.
/** Condition on `team t`: the member is visible to visitors. */
const PUBLIC_MEMBER: SQL = teamMemberIsPublicAs("t");
/** Condition on `articles a`: the article is published. */
const PUBLIC_ARTICLE: SQL = articleIsPublicAs("a");

/**
 * Articles ranked per query: the newest this many that match (one more is
 * read to know there are more). Every match is ranked up to this size; past
 * it, the best of the newest are shown and the count reads "500+"
 * (decision 0013: ranking every article a common word matches cost over a
 * second at 100,000 articles).
 */
export const ARTICLE_CANDIDATES = 500;
/** Trigram word similarity a name or title needs to count as a near match. */
const TYPO_THRESHOLD = 0.5;

const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=12, ShortWord=3`;
/** Characters of a bio or body given to ts_headline, and how many before the first match. */
const EXTRACT_WINDOW = 480;
const EXTRACT_LEAD = 120;
const TITLE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`;

export type SearchResult = {
  kind: ResultKind;
  href: string;
  title: HighlightPart[];
  extract: HighlightPart[];
  /** Lawyer: their title. Article: category and date. Practice page: "Practice area". */
  detail: string;
};

export type SearchPage = {
  /** The words searched (empty: nothing was searched). */
  terms: string[];
  /** True when nothing matched the words and these are near matches of names and titles. */
  nearMatches: boolean;
  counts: Record<ResultKind, number>;
  /** Matches of the chosen kind (all kinds for "all"), at most ARTICLE_CANDIDATES articles. */
  total: number;
  /** More articles matched than were ranked (the count is then "500+"). */
  more: boolean;
  page: number;
  pageCount: number;
  items: SearchResult[];
};

const EMPTY_COUNTS: Record<ResultKind, number> = { lawyers: 0, insights: 0, practice: 0 };

/**
 * The three practice pages in `search_pages` (migration 0007): their fixed
 * text from the code, written when it differs, once per process and
 * database; the database makes their vectors.
 */
const pagesWritten = new WeakMap<object, Promise<void>>();
function ensurePracticePages(): Promise<void> {
  const database = db();
  let done = pagesWritten.get(database);
  if (!done) {
    const rows = PRACTICE_AREAS.map((area, i) => {
      const page = PRACTICE_PAGES[area];
      const copy = PRACTICE_COPY[area];
      const body = [copy.lead, ...copy.paragraphs, ...copy.services, copy.help].join("\n");
      return sql`(${i + 1}::int, ${area}::text, ${page.path}::text, ${page.title}::text, ${page.subtitle ?? ""}::text, ${body}::text)`;
    });
    done = database
      .execute(
        sql`insert into search_pages (id, key, path, title, summary, body) values ${sql.join(rows, sql`, `)}
          on conflict (id) do update set key = excluded.key, path = excluded.path, title = excluded.title, summary = excluded.summary, body = excluded.body
          where (search_pages.key, search_pages.path, search_pages.title, search_pages.summary, search_pages.body)
            is distinct from (excluded.key, excluded.path, excluded.title, excluded.summary, excluded.body)`,
      )
      .then(() => {});
    done.catch(() => pagesWritten.delete(database));
    pagesWritten.set(database, done);
  }
  return done;
}

type Row = {
  kind: "lawyer" | "insight" | "practice";
  id: number;
  slug: string;
  title_marked: string;
  extract: string;
  role: string | null;
  category: string | null;
  date: string | null;
  news: boolean | null;
};

const KIND_OF_ROW = { lawyer: "lawyers", insight: "insights", practice: "practice" } as const;

/**
 * One query: the matching rows of each kind (with their rank), the counts per
 * kind, and the requested page of the chosen kind with its extracts.
 * `near`: names and titles by trigram similarity instead of the words.
 */
export function searchSql(opts: { tsQuery: string; phrase: string; near: boolean; kind: SearchKind; offset: number }): SQL {
  const { tsQuery, phrase, near, kind, offset } = opts;
  // Where the extract starts: the first place the longest word's first letters appear.
  const longest = phrase.split(" ").reduce((a, b) => (b.length > a.length ? b : a), "");
  const needle = longest.slice(0, 5) || " ";
  // The query written out (not read from the CTE) where rows are chosen, so the
  // planner sees it and estimates from the statistics how many rows match.
  const match = (vector: SQL, name: SQL) =>
    near ? sql`${phrase} <% ${name}` : sql`${vector} @@ to_tsquery('english'::regconfig, ${tsQuery})`;
  const rank = (vector: SQL, name: SQL) =>
    near ? sql`word_similarity(${phrase}, ${name})::float8` : sql`ts_rank(${vector}, q.query)::float8`;
  const kindFilter =
    kind === "all" ? sql`true` : sql`h.kind = ${({ lawyers: "lawyer", insights: "insight", practice: "practice" } as const)[kind]}`;
  return sql`
    with q as (select to_tsquery('english', ${tsQuery}) as query),
    practice_doc as (
      -- The page's editable header text (headers.value = the area) joins its fixed text, weight B.
      select p.id, p.path, p.title, p.body,
        p.search_vector || setweight(to_tsvector('english'::regconfig, coalesce(h.header_text, '')), 'B') as vector
      from search_pages p
      left join lateral (select h.header_text from headers h where h.value = p.key order by h.id limit 1) h on true
    ),
    article_hits as materialized (
      select a.id, a.published_at as at, a.search_vector as vector, a.title
        from articles a where ${match(sql`a.search_vector`, sql`a.title`)} and (${PUBLIC_ARTICLE})
        order by a.published_at desc, a.id desc limit ${ARTICLE_CANDIDATES + 1}
    ),
    hits as materialized (
      select 'lawyer'::text as kind, t.id, ${rank(sql`t.search_vector`, sql`t.full_name`)} as rank, t.created_at as at
        from team t, q where ${match(sql`t.search_vector`, sql`t.full_name`)} and (${PUBLIC_MEMBER})
      union all
      select 'insight', ah.id, ${rank(sql`ah.vector`, sql`ah.title`)}, ah.at from article_hits ah, q
      union all
      select 'practice', p.id, ${rank(sql`p.vector`, sql`p.title`)}, null
        from practice_doc p, q where ${match(sql`p.vector`, sql`p.title`)}
    ),
    page as (
      select h.* from hits h where ${kindFilter}
      order by h.rank desc, h.at desc nulls first, h.kind, h.id desc
      limit ${SEARCH_PAGE_SIZE} offset ${offset}
    )
    select
      (select coalesce(json_object_agg(c.kind, c.n), '{}'::json) from (select kind, count(*)::int as n from hits group by kind) c) as counts,
      (select coalesce(json_agg(r order by r.rank desc, r.at desc nulls first, r.kind, r.id desc), '[]'::json) from (
        select pg.kind, pg.id, pg.rank, pg.at,
          coalesce(t.slug, a.slug, p.path) as slug,
          ts_headline('english', coalesce(t.full_name, a.title, p.title), q.query, ${TITLE_OPTIONS}) as title_marked,
          case when w.start > 1 then '… ' else '' end
            || ts_headline('english', substr(d.doc, w.start, ${EXTRACT_WINDOW}), q.query, ${HEADLINE_OPTIONS}) as extract,
          t.title as role, a.category, a.date, a.news
        from page pg cross join q
        left join team t on pg.kind = 'lawyer' and t.id = pg.id
        left join articles a on pg.kind = 'insight' and a.id = pg.id
        left join practice_doc p on pg.kind = 'practice' and p.id = pg.id
        cross join lateral (select case pg.kind when 'lawyer' then t.desc when 'insight' then concat_ws(' ', nullif(a.summary, ''), search_plain_text(a.copy)) else p.body end as doc) d
        -- ts_headline reads the whole text it is given: give it a window from a little
        -- before the first place the searched word appears (or the start).
        cross join lateral (select greatest(1, strpos(lower(d.doc), ${needle}) - ${EXTRACT_LEAD}) as start) w
      ) r) as items`;
}

function toResult(row: Row): SearchResult {
  const kind = KIND_OF_ROW[row.kind];
  const href = row.kind === "lawyer" ? `/lawyer/${row.slug}` : row.kind === "insight" ? `/post/${row.slug}` : row.slug;
  const detail =
    row.kind === "lawyer"
      ? (row.role ?? "")
      : row.kind === "insight"
        ? [row.news ? "News" : (row.category ?? ""), row.date ?? ""].filter(Boolean).join(" · ")
        : "Practice area";
  return { kind, href, title: highlightParts(row.title_marked ?? ""), extract: highlightParts(row.extract ?? ""), detail };
}

async function runSearch(opts: { tsQuery: string; phrase: string; near: boolean; kind: SearchKind; offset: number }) {
  await ensurePracticePages();
  const query = searchSql(opts);
  const result = opts.near
    ? await db().transaction(async (tx) => {
        // The similarity `<%` asks for (pg_trgm's setting), for this transaction only.
        await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_THRESHOLD)}, true)`);
        return tx.execute(query);
      })
    : await db().execute(query);
  const [row] = rowsOf<{ counts: unknown; items: unknown }>(result);
  const parse = <T>(v: unknown): T => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T));
  const raw = parse<Partial<Record<Row["kind"], number>>>(row?.counts ?? {});
  const more = (raw.insight ?? 0) > ARTICLE_CANDIDATES;
  const counts = { lawyers: raw.lawyer ?? 0, insights: Math.min(raw.insight ?? 0, ARTICLE_CANDIDATES), practice: raw.practice ?? 0 };
  return { counts, more, items: parse<Row[]>(row?.items ?? []).map(toResult) };
}

/** One page of results for a query (`raw` as typed), of one kind or all. */
export async function searchSite(raw: string, options: { kind?: SearchKind; page?: number } = {}): Promise<SearchPage> {
  const kind = options.kind ?? "all";
  const requested = Math.max(1, Math.floor(options.page ?? 1));
  const terms = searchTerms(raw);
  if (terms.length === 0)
    return { terms, nearMatches: false, counts: { ...EMPTY_COUNTS }, more: false, total: 0, page: 1, pageCount: 1, items: [] };

  const tsQuery = tsQueryText(terms);
  const phrase = terms.join(" ");
  const totalOf = (counts: Record<ResultKind, number>) =>
    kind === "all" ? counts.lawyers + counts.insights + counts.practice : counts[kind];
  const run = (near: boolean, page: number) => runSearch({ tsQuery, phrase, near, kind, offset: (page - 1) * SEARCH_PAGE_SIZE });

  let near = false;
  let result = await run(false, requested);
  if (totalOf(result.counts) === 0 && result.counts.lawyers + result.counts.insights + result.counts.practice === 0) {
    near = true;
    result = await run(true, requested);
  }
  const total = totalOf(result.counts);
  const pageCount = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  let page = requested;
  if (page > pageCount) {
    // Past the end (an old link, a typed URL): the last page.
    page = pageCount;
    result = await run(near, page);
  }
  return {
    terms,
    nearMatches: near,
    counts: result.counts,
    more: result.more && (kind === "all" || kind === "insights"),
    total,
    page,
    pageCount,
    items: result.items,
  };
}

/**
 * Visit statistics, the reading side (decision 0023): what the Statistics
 * screen, its CSV export and the edit screens' panels show. Reads only the
 * rollups (stats_hourly, stats_daily, stats_daily_items), never the raw
 * events, so a year of figures costs a few small queries whatever the
 * traffic; every instance reads the same tables, so every instance shows the
 * same figures.
 */
import { rowsOf } from "./rows";
import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { addDays, firmToday, NOT_FOUND_PAGE, startOfFirmDay, type StatsRange } from "~/lib/stats";
import { db } from "./client";
import { articles, redirects, statsDaily, statsDailyItems, statsHourly, statsRollupState, team } from "./schema";

/** The lists the screen shows; each a dimension of stats_daily_items (lawyers and insights: pages of that kind). */
export const STATS_LISTS = [
  "page",
  "lawyers",
  "insights",
  "entry",
  "referrer",
  "campaign",
  "search",
  "search-none",
  "outbound",
  "conversion:enquiry",
  "conversion:subscription",
  "device",
  "browser",
] as const;
export type StatsList = (typeof STATS_LISTS)[number];

export type StatsRow = {
  key: string;
  /** What staff read: a lawyer's name, an article's title, else the key. */
  label: string;
  count: number;
  previous: number;
  visitors: number;
  /** Average time on page (pages only), ms; null without any. */
  avgTimeMs: number | null;
};

export type StatsListResult = { rows: StatsRow[]; total: number; previousTotal: number };

export type Totals = { views: number; visitors: number; visits: number; avgTimeMs: number | null };

export type SeriesPoint = { at: string; views: number; visitors: number };

export type StatsReport = {
  totals: Totals;
  previous: Totals;
  /** Per hour for a one-day range (Toronto hours: 23 or 25 on the days the clocks change), per day otherwise. */
  series: { unit: "hour" | "day"; points: SeriesPoint[] };
  lists: Record<StatsList, StatsListResult>;
  /** When the rollup last ran (figures are at most that old), ISO; null before the first run. */
  rolledAt: string | null;
};

async function totalsBetween(from: string, to: string): Promise<Totals> {
  const [row] = await db()
    .select({
      views: sql<number>`coalesce(sum(${statsDaily.views}), 0)::int`,
      visitors: sql<number>`coalesce(sum(${statsDaily.visitors}), 0)::int`,
      visits: sql<number>`coalesce(sum(${statsDaily.visits}), 0)::int`,
      timeMs: sql<number>`coalesce(sum(${statsDaily.time_ms}), 0)::float8`,
      timeCount: sql<number>`coalesce(sum(${statsDaily.time_count}), 0)::int`,
    })
    .from(statsDaily)
    .where(and(gte(statsDaily.day, from), lte(statsDaily.day, to)));
  const timeCount = Number(row?.timeCount ?? 0);
  return {
    views: Number(row?.views ?? 0),
    visitors: Number(row?.visitors ?? 0),
    visits: Number(row?.visits ?? 0),
    avgTimeMs: timeCount ? Number(row.timeMs) / timeCount : null,
  };
}

async function seriesOf(range: StatsRange): Promise<StatsReport["series"]> {
  if (range.days === 1) {
    const start = startOfFirmDay(range.from);
    const end = startOfFirmDay(addDays(range.from, 1));
    const rows = await db()
      .select()
      .from(statsHourly)
      .where(and(gte(statsHourly.hour, start), sql`${statsHourly.hour} < ${end.toISOString()}::timestamptz`));
    const byHour = new Map(rows.map((r) => [new Date(r.hour).getTime(), r]));
    const points: SeriesPoint[] = [];
    for (let t = start.getTime(); t < end.getTime(); t += 3_600_000) {
      const r = byHour.get(t);
      points.push({ at: new Date(t).toISOString(), views: r?.views ?? 0, visitors: r?.visitors ?? 0 });
    }
    return { unit: "hour", points };
  }
  const rows = await db()
    .select({ day: statsDaily.day, views: statsDaily.views, visitors: statsDaily.visitors })
    .from(statsDaily)
    .where(and(gte(statsDaily.day, range.from), lte(statsDaily.day, range.to)));
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const points: SeriesPoint[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const r = byDay.get(day);
    points.push({ at: day, views: r?.views ?? 0, visitors: r?.visitors ?? 0 });
  }
  return { unit: "day", points };
}

type ListRow = {
  list: string;
  key: string;
  cur: number | string | null;
  prev: number | string | null;
  visitors: number | string | null;
  time_ms: number | string | null;
  time_count: number | string | null;
  total: number | string | null;
  prev_total: number | string | null;
};

/**
 * Every dimension in one query (no row read twice): each key's figures in the
 * range and in the period before, the `limit` biggest per dimension (all with
 * `limit` null: the CSV) — every page, so that the lawyers' and the articles'
 * lists can be taken from them — and each dimension's totals in both periods.
 */
async function listsOf(range: StatsRange, limit: number | null): Promise<ListRow[]> {
  const result = await db().execute(sql`
    with grouped as (
      select i.dimension as list, i.key,
        sum(i.count) filter (where i.day >= ${range.from}::date) as cur,
        sum(i.count) filter (where i.day < ${range.from}::date) as prev,
        sum(i.visitors) filter (where i.day >= ${range.from}::date) as visitors,
        sum(i.time_ms) filter (where i.day >= ${range.from}::date) as time_ms,
        sum(i.time_count) filter (where i.day >= ${range.from}::date) as time_count
      from stats_daily_items i
      where i.day >= ${range.previousFrom}::date and i.day <= ${range.to}::date
      group by i.dimension, i.key
    ),
    ranked as (
      select *,
        sum(cur) over (partition by list) as total,
        sum(prev) over (partition by list) as prev_total,
        row_number() over (partition by list order by cur desc nulls last, key) as rn
      from grouped
    )
    select list, key, cur, prev, visitors, time_ms, time_count, total, prev_total from ranked
    where list = 'page' or ((cur > 0 or rn = 1) ${limit === null ? sql`` : sql`and rn <= ${limit}`})
    order by list, rn`);
  return rowsOf<ListRow>(result);
}

/** A lawyer's profile page (not their contact card or PDF), or an article's page. */
const isLawyerPage = (key: string) => /^\/lawyer\/[^/]+$/.test(key);
const isArticlePage = (key: string) => key.startsWith("/post/");

/** Names for lawyer and article pages (their current slug, or an old one that moved). */
async function labelsFor(keys: string[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const slugs = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  const lawyerSlugs = slugs("/lawyer/");
  const postSlugs = slugs("/post/");
  if (lawyerSlugs.length) {
    for (const r of await db().select({ slug: team.slug, name: team.full_name }).from(team).where(inArray(team.slug, lawyerSlugs)))
      labels.set(`/lawyer/${r.slug}`, r.name);
  }
  if (postSlugs.length) {
    for (const r of await db()
      .select({ slug: articles.slug, title: articles.title })
      .from(articles)
      .where(inArray(articles.slug, postSlugs)))
      labels.set(`/post/${r.slug}`, r.title);
  }
  return labels;
}

const num = (v: number | string | null | undefined) => Number(v ?? 0);

/** The Statistics screen's figures for a range, each with the previous period's. `limit`: rows per list (null: all). */
export async function statsReport(range: StatsRange, options: { limit?: number | null } = {}): Promise<StatsReport> {
  const limit = options.limit === undefined ? 10 : options.limit;
  const [totals, previous, series, listRows, state] = await Promise.all([
    totalsBetween(range.from, range.to),
    totalsBetween(range.previousFrom, range.previousTo),
    seriesOf(range),
    listsOf(range, limit),
    db().select({ rolledAt: statsRollupState.rolled_at }).from(statsRollupState).where(eq(statsRollupState.id, 1)),
  ]);
  const lists = Object.fromEntries(STATS_LISTS.map((l) => [l, { rows: [], total: 0, previousTotal: 0 }])) as unknown as Record<
    StatsList,
    StatsListResult
  >;
  const add = (name: StatsList, r: ListRow) => {
    const list = lists[name];
    if (num(r.cur) <= 0) return;
    const timeCount = num(r.time_count);
    list.rows.push({
      key: r.key,
      label: r.key,
      count: num(r.cur),
      previous: num(r.prev),
      visitors: num(r.visitors),
      avgTimeMs: timeCount ? num(r.time_ms) / timeCount : null,
    });
  };
  for (const r of listRows) {
    const name = r.list as StatsList;
    if (!(name in lists)) continue;
    lists[name].total = num(r.total);
    lists[name].previousTotal = num(r.prev_total);
    add(name, r);
    // Lawyers' profiles and articles: taken from every page (sorted biggest first already).
    if (name === "page" && isLawyerPage(r.key)) add("lawyers", r);
    if (name === "page" && isArticlePage(r.key)) add("insights", r);
  }
  for (const name of ["lawyers", "insights"] as const) {
    const pages = listRows.filter((r) => r.list === "page" && (name === "lawyers" ? isLawyerPage(r.key) : isArticlePage(r.key)));
    lists[name].total = pages.reduce((n, r) => n + num(r.cur), 0);
    lists[name].previousTotal = pages.reduce((n, r) => n + num(r.prev), 0);
  }
  if (limit !== null) for (const name of ["page", "lawyers", "insights"] as const) lists[name].rows = lists[name].rows.slice(0, limit);
  const labels = await labelsFor([...lists.page.rows, ...lists.lawyers.rows, ...lists.insights.rows].map((r) => r.key));
  labels.set(NOT_FOUND_PAGE, "Pages not found (404)");
  for (const name of ["page", "lawyers", "insights"] as const)
    for (const row of lists[name].rows) row.label = labels.get(row.key) ?? row.key;
  const rolledAt = state[0]?.rolledAt;
  return { totals, previous, series, lists, rolledAt: rolledAt ? new Date(rolledAt).toISOString() : null };
}

/**
 * Page views of a lawyer's or an article's page in the last `days` Toronto
 * days (today included), under its current slug and any old one it moved from.
 */
export async function recentPageViews(kind: "lawyer" | "post", slug: string, days = 30, now = new Date()): Promise<number> {
  const current = `/${kind}/${slug}`;
  const old = await db()
    .select({ source: redirects.source })
    .from(redirects)
    .where(and(eq(redirects.origin, "slug"), eq(redirects.match, "exact"), eq(redirects.target, current)));
  // Old paths are kept lower-cased (db/redirects.ts); statistics keep the path as it was visited.
  const paths = [current, ...old.map((o) => o.source)].map((p) => p.toLowerCase());
  const today = firmToday(now);
  const [row] = await db()
    .select({ n: sql<number>`coalesce(sum(${statsDailyItems.count}), 0)::int` })
    .from(statsDailyItems)
    .where(
      and(
        eq(statsDailyItems.dimension, "page"),
        gte(statsDailyItems.day, addDays(today, -(days - 1))),
        lte(statsDailyItems.day, today),
        inArray(sql`lower(${statsDailyItems.key})`, paths),
      ),
    );
  return Number(row?.n ?? 0);
}

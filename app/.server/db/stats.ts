/**
 * Visit statistics, the writing side (decision 0023): the daily salts, batched
 * inserts of raw events, the rollups into hourly and daily tables (Toronto
 * days; referrers, campaigns, search terms and outbound targets kept for the
 * day's most frequent values only) and the retention of all of it. The
 * Statistics screen reads the rollups through stats-report.ts. Nothing here
 * is content: no page cache is cleared.
 */
import { rowsOf } from "./rows";
import { randomBytes } from "node:crypto";
import { and, gte, inArray, lt, sql } from "drizzle-orm";
import { addDays, firmDay, OTHER_VALUES, startOfFirmDay } from "~/lib/stats";
import { db } from "./client";
import { session, statsEvents, statsSalts } from "./schema";

/** One raw event as the ingestion hands it over (the visitor already hashed). */
export type StatsEventRow = {
  at: Date;
  kind: "view" | "leave" | "outbound" | "conversion";
  visitor: number;
  path: string;
  entry: boolean;
  referrer: string | null;
  campaign: string | null;
  device: string | null;
  browser: string | null;
  detail: string | null;
  amount: number | null;
};

// ---------------------------------------------------------------------------
// Salts: one per Toronto day, the same for every instance.

/** The salts of `days`, made (random, 32 bytes) where missing: every instance gets the same ones. */
export async function ensureSalts(days: readonly string[]): Promise<Map<string, string>> {
  if (!days.length) return new Map();
  await db()
    .insert(statsSalts)
    .values(days.map((day) => ({ day, salt: randomBytes(32).toString("base64") })))
    .onConflictDoNothing();
  const rows = await db()
    .select()
    .from(statsSalts)
    .where(inArray(statsSalts.day, [...days]));
  return new Map(rows.map((r) => [r.day, r.salt]));
}

/** Deletes the salts of days before yesterday: a salt lives two days at most. Returns how many. */
export async function deleteOldSalts(now = new Date()): Promise<number> {
  const removed = await db()
    .delete(statsSalts)
    .where(lt(statsSalts.day, addDays(firmDay(now), -1)))
    .returning({ day: statsSalts.day });
  return removed.length;
}

// ---------------------------------------------------------------------------
// Raw events.

/**
 * Writes a batch of events in one statement (columns as arrays, so the
 * statement is the same whatever the batch's size) and marks the rollup
 * dirty from the batch's earliest event. A visitor's second "not found" of
 * the day (counted by another instance) is left out by its unique index.
 */
export async function insertStatsEvents(rows: readonly StatsEventRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <T>(pick: (r: StatsEventRow) => T) => sql.param(rows.map(pick));
  let earliest = rows[0].at;
  for (const r of rows) if (r.at < earliest) earliest = r.at;
  await db().transaction(async (tx) => {
    await tx.execute(sql`insert into stats_events (at, kind, visitor, path, entry, referrer, campaign, device, browser, detail, amount)
      select * from unnest(
        ${col((r) => r.at.toISOString())}::timestamptz[], ${col((r) => r.kind)}::text[], ${col((r) => r.visitor)}::bigint[],
        ${col((r) => r.path)}::text[], ${col((r) => r.entry)}::boolean[], ${col((r) => r.referrer)}::text[],
        ${col((r) => r.campaign)}::text[], ${col((r) => r.device)}::text[], ${col((r) => r.browser)}::text[],
        ${col((r) => r.detail)}::text[], ${col((r) => r.amount)}::integer[])
      on conflict do nothing`);
    await markDirty(tx, earliest);
  });
}

type Executor = Pick<ReturnType<typeof db>, "execute">;

async function markDirty(executor: Executor, from: Date) {
  await executor.execute(sql`insert into stats_rollup_state (id, dirty_from) values (1, ${from.toISOString()}::timestamptz)
    on conflict (id) do update set dirty_from = least(stats_rollup_state.dirty_from, excluded.dirty_from)`);
}

/** Deletes raw events older than `days` days (STATS_RAW_DAYS). Returns how many. */
export async function purgeStatsEvents(days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const result = await db().execute(sql`with gone as (delete from stats_events where at < ${cutoff.toISOString()}::timestamptz returning 1)
    select count(*)::int as n from gone`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/** Deletes the hourly and daily rollups of the Toronto days more than `days` days old (STATS_ROLLUP_DAYS). Returns the days' rows removed. */
export async function purgeStatsRollups(days: number, now = new Date()): Promise<number> {
  const oldest = addDays(firmDay(now), -(days - 1));
  const result = await db().execute(sql`with
      d as (delete from stats_daily where day < ${oldest}::date returning 1),
      i as (delete from stats_daily_items where day < ${oldest}::date returning 1),
      h as (delete from stats_hourly where hour < ${startOfFirmDay(oldest).toISOString()}::timestamptz returning 1)
    select (select count(*) from d)::int as n`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/**
 * The statistics' retention, one run: today's and tomorrow's salts made ahead
 * (every instance reads the same ones), salts older than yesterday deleted (a
 * visitor is not recognisable after two days), raw events older than
 * `rawDays` and rollups older than `rollupDays` deleted.
 */
export async function statsRetention(rawDays: number, rollupDays: number, now = new Date()) {
  const today = firmDay(now);
  await ensureSalts([today, addDays(today, 1)]);
  return {
    saltsRemoved: await deleteOldSalts(now),
    eventsRemoved: await purgeStatsEvents(rawDays, now),
    rollupDaysRemoved: await purgeStatsRollups(rollupDays, now),
  };
}

/** Of these session tokens, the ones of a live staff session (one query for a whole batch of beacons). */
export async function liveSessionTokens(tokens: readonly string[], now = new Date()): Promise<Set<string>> {
  if (!tokens.length) return new Set();
  const rows = await db()
    .select({ token: session.token })
    .from(session)
    .where(and(inArray(session.token, [...tokens]), gte(session.expiresAt, now)));
  return new Set(rows.map((r) => r.token));
}

// ---------------------------------------------------------------------------
// Rollups.

/** A Toronto day's span in UTC (23, 24 or 25 hours). */
function daySpan(day: string): { start: string; end: string } {
  return { start: startOfFirmDay(day).toISOString(), end: startOfFirmDay(addDays(day, 1)).toISOString() };
}

/** Recomputes one Toronto day's totals and items from the raw events (idempotent). */
async function rollupDay(day: string, topValues: number): Promise<void> {
  const { start, end } = daySpan(day);
  const span = sql`at >= ${start}::timestamptz and at < ${end}::timestamptz`;
  await db().transaction(async (tx) => {
    await tx.execute(sql`delete from stats_daily where day = ${day}::date`);
    await tx.execute(sql`delete from stats_daily_items where day = ${day}::date`);
    await tx.execute(sql`insert into stats_daily (day, views, visitors, visits, time_ms, time_count)
      select ${day}::date,
        count(*) filter (where kind = 'view'),
        count(distinct visitor) filter (where kind = 'view'),
        count(*) filter (where kind = 'view' and entry),
        coalesce(sum(amount) filter (where kind = 'leave'), 0),
        count(*) filter (where kind = 'leave')
      from stats_events where ${span}
      having count(*) > 0`);
    // Pages: views, visitors, time on page.
    await tx.execute(sql`insert into stats_daily_items (day, dimension, key, count, visitors, time_ms, time_count)
      select ${day}::date, 'page', path,
        count(*) filter (where kind = 'view'),
        count(distinct visitor) filter (where kind = 'view'),
        coalesce(sum(amount) filter (where kind = 'leave'), 0),
        count(*) filter (where kind = 'leave')
      from stats_events where ${span} and kind in ('view', 'leave')
      group by path`);
    // Entry pages count visits; devices and browsers count visitors (and views).
    await tx.execute(sql`insert into stats_daily_items (day, dimension, key, count, visitors)
      select ${day}::date, 'entry', path, count(*), count(distinct visitor)
      from stats_events where ${span} and kind = 'view' and entry
      group by path`);
    await tx.execute(sql`insert into stats_daily_items (day, dimension, key, count, visitors)
      select ${day}::date, d.dimension, d.key, count(*), count(distinct e.visitor)
      from stats_events e
      cross join lateral (values ('device', e.device), ('browser', e.browser)) as d(dimension, key)
      where e.at >= ${start}::timestamptz and e.at < ${end}::timestamptz and e.kind = 'view' and d.key is not null
      group by d.dimension, d.key`);
    // What visitors' browsers say (referrers and campaigns, counting visits; search terms with and without
    // results; outbound targets): the day's topValues most frequent of each, the rest as OTHER_VALUES.
    await tx.execute(sql`insert into stats_daily_items (day, dimension, key, count, visitors)
      select ${day}::date, dimension, case when rn <= ${topValues} then key else ${OTHER_VALUES} end, sum(count), sum(visitors)
      from (
        select *, row_number() over (partition by dimension order by count desc, key) as rn
        from (
          select d.dimension, d.key, count(*) as count, count(distinct e.visitor) as visitors
          from stats_events e
          cross join lateral (values ('referrer', e.referrer), ('campaign', e.campaign)) as d(dimension, key)
          where e.at >= ${start}::timestamptz and e.at < ${end}::timestamptz and e.kind = 'view' and e.entry and d.key is not null
          group by d.dimension, d.key
          union all
          select case when kind = 'view' then (case when amount > 0 then 'search' else 'search-none' end) else 'outbound' end,
            detail, count(*), count(distinct visitor)
          from stats_events
          where ${span} and detail is not null and (kind = 'outbound' or (kind = 'view' and path = '/search'))
          group by 1, detail
        ) grouped
      ) ranked
      group by dimension, 3`);
    // Conversions, by the page the visit began on: the visitor's latest entry before it that day ('' when none).
    await tx.execute(sql`insert into stats_daily_items (day, dimension, key, count, visitors)
      select ${day}::date, 'conversion:' || c.detail, coalesce(v.path, ''), count(*), count(distinct c.visitor)
      from stats_events c
      left join lateral (
        select e.path from stats_events e
        where e.kind = 'view' and e.entry and e.visitor = c.visitor and e.at <= c.at and e.at >= ${start}::timestamptz
        order by e.at desc limit 1
      ) v on true
      where c.at >= ${start}::timestamptz and c.at < ${end}::timestamptz and c.kind = 'conversion'
      group by c.detail, coalesce(v.path, '')`);
  });
}

/** Recomputes the hours from `from` (an hour's start) to `to` (exclusive). */
async function rollupHours(from: Date, to: Date): Promise<void> {
  const range = sql`at >= ${from.toISOString()}::timestamptz and at < ${to.toISOString()}::timestamptz`;
  await db().transaction(async (tx) => {
    await tx.execute(
      sql`delete from stats_hourly where hour >= ${from.toISOString()}::timestamptz and hour < ${to.toISOString()}::timestamptz`,
    );
    await tx.execute(sql`insert into stats_hourly (hour, views, visitors, visits)
      select date_trunc('hour', at at time zone 'UTC') at time zone 'UTC',
        count(*), count(distinct visitor), count(*) filter (where entry)
      from stats_events where ${range} and kind = 'view'
      group by 1`);
  });
}

/**
 * The rollup job: takes the earliest moment written since the last run
 * (`stats_rollup_state.dirty_from`, set by every batch) and recomputes the
 * hours and Toronto days from there to now. Idempotent; a failure marks the
 * span dirty again for the next run. Returns the days and hours recomputed.
 * `topValues`: STATS_TOP_VALUES (the job passes it; tests take the default).
 */
export async function rollupStats(
  now = new Date(),
  options: { topValues: number } = { topValues: 100 },
): Promise<{ days: number; hours: number }> {
  const { topValues } = options;
  const taken = rowsOf<{ dirty_from: string | Date | null }>(
    await db().execute(sql`with old as (select dirty_from from stats_rollup_state where id = 1 for update)
      update stats_rollup_state s set dirty_from = null, rolled_at = now() from old where s.id = 1 returning old.dirty_from`),
  )[0]?.dirty_from;
  if (!taken) return { days: 0, hours: 0 };
  const from = new Date(taken);
  try {
    // Events stamped up to a little after `now` (another instance's clock) are included.
    const until = new Date(now.getTime() + 60_000);
    const hourStart = new Date(Math.floor(from.getTime() / 3_600_000) * 3_600_000);
    const hourEnd = new Date(Math.ceil(until.getTime() / 3_600_000) * 3_600_000);
    await rollupHours(hourStart, hourEnd);
    let days = 0;
    for (let day = firmDay(from), last = firmDay(until); day <= last; day = addDays(day, 1)) {
      await rollupDay(day, topValues);
      days++;
    }
    return { days, hours: Math.round((hourEnd.getTime() - hourStart.getTime()) / 3_600_000) };
  } catch (error) {
    await markDirty(db(), from).catch(() => undefined);
    throw error;
  }
}

/** Marks everything from `from` for the next rollup (tests; a repair after restoring raw events). */
export async function markStatsDirty(from: Date): Promise<void> {
  await markDirty(db(), from);
}

/** How many raw events there are (monitoring, tests). */
export async function countStatsEvents(kind?: StatsEventRow["kind"]): Promise<number> {
  const rows = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(statsEvents)
    .where(kind ? inArray(statsEvents.kind, [kind]) : undefined);
  return Number(rows[0]?.n ?? 0);
}

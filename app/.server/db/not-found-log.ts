/**
 * Queries for the 404 log (tables `not_found_log`, `not_found_ignored`;
 * app/.server/redirects/not-found.ts counts). A day keeps at most
 * NOT_FOUND_PATHS_PER_DAY paths: a path first seen once the day is full is
 * counted under "(other paths)", as statistics bound their lists.
 */
import { and, desc, eq, gte, inArray, lt, notExists, sql } from "drizzle-orm";
import { addDays, firmToday } from "~/lib/stats";
import { db } from "./client";
import { notFoundIgnored, notFoundLog, redirects } from "./schema";

/** A day's count of a path as the counter holds it until it writes: the log row's day, path and count, its latest time and its referrers. */
export type NotFoundCount = Pick<typeof notFoundLog.$inferSelect, "day" | "path" | "count"> & {
  kind: "path" | "probe" | "other";
  last: Date;
  referrers: Map<string, number>;
};

const OTHER = "(other paths)";

/** Writes counted 404s: new paths only while the day has room, the rest under "(other paths)". */
export async function writeNotFound(batch: readonly NotFoundCount[], perDay: number): Promise<void> {
  const byDay = new Map<string, NotFoundCount[]>();
  for (const c of batch) byDay.set(c.day, [...(byDay.get(c.day) ?? []), c]);
  await db().transaction(async (tx) => {
    for (const [day, counts] of byDay) {
      const paths = counts.filter((c) => c.kind === "path").map((c) => c.path);
      const known = new Set(
        paths.length
          ? (
              await tx
                .select({ path: notFoundLog.path })
                .from(notFoundLog)
                .where(and(eq(notFoundLog.day, day), inArray(notFoundLog.path, paths)))
            ).map((r) => r.path)
          : [],
      );
      const [{ n }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(notFoundLog)
        .where(and(eq(notFoundLog.day, day), eq(notFoundLog.kind, "path")));
      let room = Math.max(0, perDay - n);
      const rows = new Map<string, NotFoundCount>();
      for (const c of counts) {
        let row = c;
        if (c.kind === "path" && !known.has(c.path)) {
          if (room > 0) room--;
          else row = { ...c, path: OTHER, kind: "other", referrers: new Map() };
        }
        const same = rows.get(row.path);
        if (same) {
          same.count += row.count;
          if (row.last > same.last) same.last = row.last;
        } else rows.set(row.path, { ...row, referrers: new Map(row.referrers) });
      }
      const values = [...rows.values()].map((r) => {
        const [referrer, referrerCount] = [...r.referrers].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
        return sql`(${day}::date, ${r.path}, ${r.kind}, ${r.count}::int, ${r.last.toISOString()}::timestamptz, ${referrer}, ${referrerCount}::int)`;
      });
      await tx.execute(sql`
        insert into not_found_log (day, path, kind, count, last_at, referrer, referrer_count)
        values ${sql.join(values, sql`, `)}
        on conflict (day, path) do update set
          count = not_found_log.count + excluded.count,
          last_at = greatest(not_found_log.last_at, excluded.last_at),
          referrer = case when excluded.referrer_count > not_found_log.referrer_count then excluded.referrer else not_found_log.referrer end,
          referrer_count = greatest(not_found_log.referrer_count, excluded.referrer_count)`);
    }
  });
}

export type NotFoundRow = { path: string; kind: string; count: number; days: number; last_at: Date; referrer: string };

/**
 * The screen's list over the last `days` Toronto days: most frequent first,
 * without ignored paths and paths that have a redirect now; crawlers'
 * probes and the overflow row are kept (they say how much there was).
 */
export async function listNotFound(options: { days: number; limit?: number; now?: Date }): Promise<NotFoundRow[]> {
  const from = addDays(firmToday(options.now), -(options.days - 1));
  return db()
    .select({
      path: notFoundLog.path,
      kind: sql<string>`min(${notFoundLog.kind})`,
      count: sql<number>`sum(${notFoundLog.count})::int`,
      days: sql<number>`count(*)::int`,
      last_at: sql<Date>`max(${notFoundLog.last_at})`.mapWith((v: string | Date) => new Date(v)),
      referrer: sql<string>`(array_agg(${notFoundLog.referrer} order by ${notFoundLog.referrer_count} desc))[1]`,
    })
    .from(notFoundLog)
    .where(
      and(
        gte(notFoundLog.day, from),
        notExists(
          db()
            .select({ x: sql`1` })
            .from(notFoundIgnored)
            .where(eq(notFoundIgnored.path, notFoundLog.path)),
        ),
        notExists(
          db()
            .select({ x: sql`1` })
            .from(redirects)
            .where(
              and(
                eq(redirects.match, "exact"),
                eq(redirects.query, ""),
                eq(redirects.source, notFoundLog.path),
                eq(redirects.enabled, true),
              ),
            ),
        ),
      ),
    )
    .groupBy(notFoundLog.path)
    .orderBy(desc(sql`sum(${notFoundLog.count})`), notFoundLog.path)
    .limit(options.limit ?? 200);
}

/** Marks a path as not worth a redirect: it leaves the list (the counts stay). */
export async function ignoreNotFound(path: string, by: string): Promise<void> {
  await db().insert(notFoundIgnored).values({ path, by }).onConflictDoNothing();
}

/** Days older than `keepDays` leave the log (the retention job). */
export async function purgeNotFoundLog(keepDays: number, now = new Date()): Promise<number> {
  const before = addDays(firmToday(now), -(keepDays - 1));
  const removed = await db().delete(notFoundLog).where(lt(notFoundLog.day, before)).returning({ day: notFoundLog.day });
  return removed.length;
}

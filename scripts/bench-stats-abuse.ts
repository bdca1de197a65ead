/**
 * `npm run bench:stats-abuse`: the visit statistics under a flood (issue 43).
 *
 * On a throwaway PostgreSQL database next to TEST_DATABASE_URL's (default
 * postgres://postgres@127.0.0.1:5432/postgres; dropped at the end), with the
 * demo content and the production server (one instance, its defaults:
 * STATS_MAX_VIEWS_PER_MINUTE 60, STATS_TOP_VALUES 100):
 * 1. a few ordinary views of the site's pages (and one page that does not
 *    exist): the paths the figures hold before the flood;
 * 2. one visitor (one address, one browser) sends 10,000 beacons with made-up
 *    paths (made-up pages, lawyers, articles and confirmation links), made-up
 *    referrers, campaigns and search terms, as fast as it can (BENCH_ABUSE_BEACONS);
 * 3. then 10,000 beacons of the same kind, each from a visitor of its own
 *    (a flood from many addresses, which no limit per visitor stops);
 * after each, the day is rolled up (the job's own function) and the
 * Statistics CSV downloaded as staff. Targets: every beacon answered 204; the
 * one visitor's flood adds at most 60 page views a minute it lasted and no
 * distinct path; neither flood adds a path, nor more than STATS_TOP_VALUES
 * referrers, campaigns or search terms (and "other"); the CSV stays under
 * 1 MB. Prints the figures and "met"/"not met"; exits 1 when a target is
 * missed. Builds the app first.
 */
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setDatabase } from "~/.server/db/client";
import { seedDemoContent } from "~/.server/db/seed";
import { rollupStats } from "~/.server/db/stats";
import { diskStorage, setStorage } from "~/.server/storage/storage";
import { signInCookie } from "../tests/support/cluster";
import { createTestDatabase } from "../tests/support/database";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer } from "../tests/e2e/support";

const BEACONS = Number(process.env.BENCH_ABUSE_BEACONS ?? 10_000);
const MAX_VIEWS_PER_MINUTE = 60;
const TOP_VALUES = 100;
const MAX_CSV_BYTES = 1_000_000;
const CONCURRENCY = 16;
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";

const say = (message: string) => console.log(`[bench:stats-abuse] ${message}`);

/** A made-up beacon: a page that does not exist, a made-up lawyer, article or confirmation link, a search; a made-up referrer and campaign. */
function madeUp(i: number): object {
  const junk = randomBytes(6).toString("hex");
  const paths = [
    `/made-up-${junk}`,
    `/lawyer/nobody-${junk}`,
    `/post/no-such-article-${junk}`,
    `/subscribe/confirm/${junk}.${junk}.${"x".repeat(32)}`,
    `/team?utm_source=spam-${junk}&utm_campaign=c-${junk}`,
    `/search?q=spam+${junk}`,
  ];
  return { k: "v", p: paths[i % paths.length], r: `https://spam-${junk}.example/landing/${junk}`, n: i % 2 };
}

async function main() {
  say("building…");
  execSync("npx react-router build", { stdio: "ignore" });
  // A throwaway PostgreSQL database (the server runs in a process of its own), dropped at the end.
  process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
  const { database, url: databaseUrl, drop } = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-bench-abuse-"));
  setDatabase(database);
  setStorage(diskStorage(path.join(dataDir, "uploads")));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const failures: string[] = [];
  const query = async <T>(text: string) => (await database.pool!.query(text)).rows as T[];
  try {
    await seedDemoContent(() => undefined);
    // Behind nginx, as deployed: the visitor's address from X-Forwarded-For.
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl!, LOG_LEVEL: "error", TRUST_PROXY: "true" }, quiet: true });
    const base = server.url;
    const send = async (beacon: object, visitor: string, ua = FIREFOX) => {
      const response = await fetch(`${base}/stats/beacon`, {
        method: "POST",
        body: JSON.stringify(beacon),
        headers: { origin: base, "content-type": "text/plain;charset=UTF-8", "user-agent": ua, "x-forwarded-for": visitor },
      });
      await response.arrayBuffer();
      return response.status;
    };
    const settle = () => new Promise((r) => setTimeout(r, 2500));
    const pathsNow = async () =>
      new Set((await query<{ path: string }>("select distinct path from stats_events where kind = 'view'")).map((r) => r.path));
    const viewsNow = async () => Number((await query<{ n: string }>("select count(*) as n from stats_events where kind = 'view'"))[0].n);
    const cookie = await signInCookie(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    const report = async (label: string) => {
      await rollupStats(new Date(), { topValues: TOP_VALUES });
      const csv = await fetch(`${base}/dashboard/statistics/export?range=today`, { headers: { cookie } });
      const body = await csv.text();
      const bytes = Buffer.byteLength(body);
      const items = await query<{ dimension: string; n: string }>(
        "select dimension, count(*) as n from stats_daily_items where day = (select max(day) from stats_daily) group by dimension order by dimension",
      );
      const byDimension = Object.fromEntries(items.map((r) => [r.dimension, Number(r.n)]));
      say(
        `${label}: Statistics CSV ${bytes.toLocaleString("en-CA")} bytes, ${body.split("\r\n").length - 1} lines (target < ${MAX_CSV_BYTES.toLocaleString("en-CA")} bytes): ${bytes < MAX_CSV_BYTES ? "met" : "not met"}; the day's rows by dimension ${JSON.stringify(byDimension)}`,
      );
      if (csv.status !== 200) failures.push(`${label}: the CSV answered ${csv.status}`);
      if (bytes >= MAX_CSV_BYTES) failures.push(`${label}: CSV of ${bytes} bytes`);
      for (const dimension of ["referrer", "campaign", "search", "search-none"])
        if ((byDimension[dimension] ?? 0) > TOP_VALUES + 1) failures.push(`${label}: ${byDimension[dimension]} ${dimension} rows in a day`);
      // Pages (and the entry pages conversions are credited to) hold no made-up address; referrers, campaigns and
      // search terms are what visitors sent, the day's most frequent kept.
      const pageLines = body.split("\r\n").filter((line) => /^\uFEFF?"(page|entry|lawyers|insights|conversion:[a-z]+)"/.test(line));
      const madeUpPages = pageLines.filter((line) => /nobody-|no-such-article|made-up-|spam-/.test(line));
      if (madeUpPages.length) failures.push(`${label}: made-up pages in the CSV: ${madeUpPages.slice(0, 3).join(" | ")}`);
    };

    // 1. Ordinary visits: the site's pages, and one page that does not exist.
    const pages = ["/", "/team", "/insights", "/cyber", "/construction", "/insurance", "/contact", "/search?q=ransomware", "/no-such-page"];
    pages.push(`/subscribe/confirm/${randomBytes(8).toString("hex")}`); // a subscriber's confirmation link
    for (const [i, p] of pages.entries()) await send({ k: "v", p, r: "https://www.google.com/", n: 2 }, `192.0.2.${i + 1}`);
    await settle();
    const before = await pathsNow();
    const viewsBefore = await viewsNow();
    say(`ordinary visits: ${viewsBefore} views of ${before.size} paths (${[...before].sort().join(", ")})`);

    // 2. One visitor, BEACONS made-up beacons as fast as it can.
    const flood = async (visitorOf: (i: number) => [string, string]) => {
      const statuses = new Map<number, number>();
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < BEACONS) {
            const i = next++;
            const [address, ua] = visitorOf(i);
            const status = await send(madeUp(i), address, ua);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      const ms = Date.now() - started;
      await settle();
      return { ms, statuses, minutes: Math.floor((started + ms) / 60_000) - Math.floor(started / 60_000) + 1 };
    };
    const one = await flood(() => ["198.51.100.7", FIREFOX]);
    const added = (await viewsNow()) - viewsBefore;
    const afterOne = await pathsNow();
    const newPaths = [...afterOne].filter((p) => !before.has(p));
    const allowed = MAX_VIEWS_PER_MINUTE * one.minutes;
    say(
      `one visitor, ${BEACONS.toLocaleString("en-CA")} made-up beacons in ${(one.ms / 1000).toFixed(1)} s (answers ${JSON.stringify(Object.fromEntries(one.statuses))}): ${added} page views counted (target ≤ ${allowed}: ${MAX_VIEWS_PER_MINUTE} a minute over the ${one.minutes} clock minute(s) it spanned): ${added <= allowed ? "met" : "not met"}; new distinct paths: ${newPaths.length ? newPaths.join(", ") : "none"} (target none): ${newPaths.length ? "not met" : "met"}`,
    );
    if (one.statuses.size !== 1 || !one.statuses.has(204)) failures.push("a beacon of the flood was not answered 204");
    if (added > allowed) failures.push(`one visitor's flood counted ${added} page views`);
    if (newPaths.length) failures.push(`one visitor's flood added paths: ${newPaths.join(", ")}`);
    await report("after one visitor's flood");

    // 3. The same from BEACONS visitors of their own (the limit per visitor does not stop it; the rest must bound it).
    const many = await flood((i) => [`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `${FIREFOX} Visitor/${i}`]);
    const afterMany = await pathsNow();
    const newPathsMany = [...afterMany].filter((p) => !before.has(p));
    say(
      `${BEACONS.toLocaleString("en-CA")} visitors, one made-up beacon each, in ${(many.ms / 1000).toFixed(1)} s (answers ${JSON.stringify(Object.fromEntries(many.statuses))}): new distinct paths: ${newPathsMany.length ? newPathsMany.join(", ") : "none"} (target none): ${newPathsMany.length ? "not met" : "met"}`,
    );
    if (many.statuses.size !== 1 || !many.statuses.has(204)) failures.push("a beacon of the second flood was not answered 204");
    if (newPathsMany.length) failures.push(`many visitors' flood added paths: ${newPathsMany.join(", ")}`);
    await report(`after ${BEACONS.toLocaleString("en-CA")} visitors' flood`);
  } finally {
    await server?.stop();
    setDatabase(undefined);
    setStorage(undefined);
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failures.length) {
    say(`targets not met: ${failures.join("; ")}`);
    process.exit(1);
  }
  say("all targets met");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

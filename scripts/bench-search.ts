/**
 * `npm run bench:search`: speed of the site search (decision 0013).
 *
 * Creates a throwaway PostgreSQL database next to the one of TEST_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres; dropped at the end),
 * migrates it, loads 100,000 articles and 200 members with generated text
 * (legal vocabulary, skewed so some words are in most articles and others in
 * a handful), ANALYZEs, then times the query function `searchSite()` directly
 * (no HTTP, one connection, one query after another) for a common word, a
 * rare word, a two-word query and a prefix, and prints p50/p99 against the
 * target (p99 <= 30 ms), "met" or "not met", and the CPU time a query costs
 * (PostgreSQL backend from /proc when local, plus this process; 10 ms clock
 * ticks, averaged over the runs). Then, on PostgreSQL, it builds the app,
 * starts the production server on the same database and measures the same
 * three queries as a visitor gets them — `/search?q=…` over HTTP with `wrk`
 * (Debian's package) at one connection — whose p99 is the figure held to the
 * target. Exits 1 when a target is missed.
 *
 * BENCH_SEARCH_PGLITE=1 runs the same on an in-memory PGlite instead
 * (slower to load; the figures are for comparison only).
 * Options (env): BENCH_ARTICLES (100000), BENCH_RUNS (200 timed runs a query),
 * BENCH_SEARCH_REUSE_URL (time against a database loaded by an earlier run and
 * kept with BENCH_SEARCH_KEEP=1: no load, no drop).
 */
import { execFileSync, execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { sql } from "drizzle-orm";
import { openDatabase, setDatabase, type Database } from "~/.server/db/client";
import { searchSite } from "~/.server/db/search";
import { startServer } from "../tests/e2e/support";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const MEMBERS = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const TARGET_P99_MS = 30;
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ON_PGLITE = process.env.BENCH_SEARCH_PGLITE === "1";
// One connection: every query waits for the one before it.
process.env.DATABASE_POOL_SIZE = "1";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** The issue's three target queries (the direct timing adds a few more for information). */
const TARGETS = [
  { label: "common word", q: "insurance" },
  { label: "rare word", q: "zeppelin" },
  { label: "two words", q: "ransomware notification" },
];

const say = (message: string) => console.log(`[bench:search] ${message}`);

/** Vocabulary, most frequent first (the draw below is skewed to the front). */
const WORDS = `insurance claim court coverage policy defence liability damages insurer contract
construction project owner contractor schedule delay payment lien notice breach cyber incident
privacy data ransomware response investigation regulator notification evidence expert witness
trial appeal decision judge motion settlement mediation arbitration adjudication holdback
subcontractor surety bond deficiency engineer design tender risk allocation indemnity
subrogation property injury accident benefits tribunal occupier slip winter municipality
fraud staged collision medical records disclosure privilege counsel forensic extortion
negotiation compromise payment invoice vendor supplier employee employer dismissal class action
certification plaintiff defendant limitation period discoverability jurisdiction ontario toronto
statute regulation amendment guidance practice directive standard care duty causation
quantum assessment reserve adjuster broker underwriter premium exclusion endorsement renewal`
  .split(/\s+/)
  .filter(Boolean);

const FILLER = "the a of and to in for on with by that this is are was be as at from or an".split(" ");

async function openThrowaway(): Promise<{ database: Database; drop: () => Promise<void>; where: string; url?: string; loaded?: boolean }> {
  if (process.env.BENCH_SEARCH_REUSE_URL) {
    const database = await openDatabase({ url: process.env.BENCH_SEARCH_REUSE_URL });
    return {
      database,
      drop: () => database.close(),
      where: `PostgreSQL (reused) ${new URL(process.env.BENCH_SEARCH_REUSE_URL).pathname}`,
      url: process.env.BENCH_SEARCH_REUSE_URL,
      loaded: true,
    };
  }
  if (ON_PGLITE) {
    const database = await openDatabase({ memory: true });
    return { database, drop: () => database.close(), where: "PGlite (in memory)" };
  }
  const name = `firm_bench_search_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    database,
    where: `PostgreSQL ${url.host}/${name}`,
    url: url.toString(),
    async drop() {
      await database.close();
      if (process.env.BENCH_SEARCH_KEEP === "1") return say(`kept ${url.pathname.slice(1)} (BENCH_SEARCH_KEEP=1)`);
      const again = new pg.Client({ connectionString: ADMIN_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

async function load(database: Database) {
  const words = sql`${`{${WORDS.join(",")}}`}::text[]`;
  const filler = sql`${`{${FILLER.join(",")}}`}::text[]`;
  // A word drawn with a skew to the front of the list (x^3), or a filler word.
  const draw = sql`case when random() < 0.45 then (${filler})[1 + floor(random() * ${FILLER.length}::int)::int]
    else (${words})[1 + floor(power(random(), 3) * ${WORDS.length}::int)::int] end`;
  const started = performance.now();
  await database.db.execute(sql`insert into team (slug, full_name, title, email, "desc", "AOP", area_details)
    select 'member-' || g, 'Member' || g || ' ' || (array['Whitcombe','Lindqvist','Okafor','Menon','Tremblay','Nakamura'])[1 + g % 6],
      (array['Partner','Associate','Managing Partner','Client Services Partner'])[1 + g % 4], 'member' || g || '@example.com',
      (select string_agg(${draw}, ' ') from generate_series(1, 60 + g % 5) w where g > 0),
      array[(array['insurance','construction','cyber'])[1 + g % 3]], array['Subrogation','Coverage issues']
    from generate_series(1, ${MEMBERS}::int) g`);
  const batch = 10_000;
  for (let from = 1; from <= ARTICLES; from += batch) {
    const to = Math.min(ARTICLES, from + batch - 1);
    await database.db.execute(sql`insert into articles (slug, title, category, news, copy, date, created_at, status, published_at)
      select 'bench-' || g,
        initcap((select string_agg(${draw}, ' ') from generate_series(1, 5 + g % 4) w where g > 0)),
        (array['insurance','construction','cyber','events'])[1 + g % 4], g % 5 = 0,
        '<p>' || (select string_agg(${draw}, ' ') from generate_series(1, 90 + g % 40) w where g > 0) || '</p><p>'
          || (select string_agg(${draw}, ' ') from generate_series(1, 60 + g % 30) w where g > 0)
          || case when g % 10000 = 7 then ' zeppelin' else '' end || '</p>',
        'Monday, January 1, 2024', now() - (g || ' minutes')::interval, 'published', now() - (g || ' minutes')::interval
      from generate_series(${from}::int, ${to}::int) g`);
    say(`loaded ${to.toLocaleString("en-CA")} articles (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await database.db.execute(sql`analyze`);
}

/** CPU milliseconds a local process has used (utime + stime from /proc), NaN when unreadable. */
function backendCpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The three target queries as visitors get them: /search over HTTP, wrk at one connection. Returns true when one misses. */
async function overHttp(databaseUrl: string): Promise<boolean> {
  const BUILD_DIR = "build-bench-search";
  say("building, then starting the production server on this database…");
  execSync("npx react-router build", { stdio: "ignore", env: { ...process.env, BUILD_DIR } });
  const server = await startServer({
    env: { BUILD_DIR, DATABASE_URL: databaseUrl, SEED_DEMO: "false", DATABASE_POOL_SIZE: "10" },
    quiet: true,
  });
  let missed = false;
  try {
    const rows: string[] = [];
    for (const { label, q } of TARGETS) {
      const target = `http://127.0.0.1:${new URL(server.url).port}/search?q=${encodeURIComponent(q)}`;
      execFileSync("wrk", ["-t1", "-c1", "-d2s", target], { encoding: "utf8" }); // warm-up
      const out = execFileSync("wrk", ["-t1", "-c1", `-d${SECONDS}s`, "--latency", target], { encoding: "utf8" });
      const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? "?";
      const p99Text = /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "?";
      const p99 = toMs(p99Text);
      const errorLine = /^\s*(Non-2xx.*|Socket errors.*)$/m.exec(out)?.[1];
      const errors = !!errorLine;
      const met = !errors && p99 <= TARGET_P99_MS;
      if (!met) missed = true;
      rows.push(
        `${label.padEnd(24)} ${JSON.stringify(q).padEnd(26)} p50 ${p50.padStart(8)}  p99 ${p99Text.padStart(8)}  ${errors ? `ERRORS (${errorLine})` : met ? "met" : "NOT MET"}`,
      );
    }
    say(`/search over HTTP (production server, wrk -t1 -c1 -d${SECONDS}s), target p99 <= ${TARGET_P99_MS} ms:`);
    for (const row of rows) console.log(row);
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  return missed;
}

/** wrk's latency text ("812.00us", "14.2ms", "1.01s") in milliseconds. */
function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!m) return Number.POSITIVE_INFINITY;
  const value = Number(m[1]);
  return m[2] === "us" ? value / 1000 : m[2] === "s" ? value * 1000 : value;
}

async function main() {
  const { database, drop, where, url: databaseUrl, loaded } = await openThrowaway();
  setDatabase(database);
  say(
    loaded
      ? `${where}: timing the data loaded earlier`
      : `${where}: loading ${ARTICLES.toLocaleString("en-CA")} articles and ${MEMBERS} members…`,
  );
  let failed = false;
  try {
    if (!loaded) await load(database);
    // CPU time a query costs (the PostgreSQL backend's, read from /proc, plus this process's): a
    // figure other work on the machine does not inflate, unlike the wall-clock percentiles.
    const pidResult = await database.db.execute(sql`select pg_backend_pid() as pid`);
    const backendPid = Number(((pidResult as { rows: { pid: number }[] }).rows ?? [])[0]?.pid ?? 0);
    // The first three are the issue's targets; the others are shown for information.
    const queries: { label: string; q: string; target: boolean }[] = [
      { label: "common word", q: "insurance", target: true },
      { label: "rare word", q: "zeppelin", target: true },
      { label: "two words", q: "ransomware notification", target: true },
      { label: "two words, both common", q: "insurance claim", target: false },
      { label: "prefix as typed", q: "constr", target: false },
      { label: "typo (near matches)", q: "witcombe", target: false },
    ];
    const rows: string[] = [];
    for (const { label, q, target } of queries) {
      for (let i = 0; i < 10; i++) await searchSite(q); // warm-up
      const times: number[] = [];
      let total = 0;
      const cpuBefore = backendCpuMs(backendPid) + process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
      for (let i = 0; i < RUNS; i++) {
        const page = 1 + (i % 3);
        const t0 = performance.now();
        const result = await searchSite(q, { page });
        times.push(performance.now() - t0);
        total = result.total;
      }
      const cpuPerQuery = (backendCpuMs(backendPid) + process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000 - cpuBefore) / RUNS;
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p99 = percentile(times, 99);
      const met = p99 <= TARGET_P99_MS;
      if (!met && target) failed = true;
      rows.push(
        `${label.padEnd(24)} ${JSON.stringify(q).padEnd(22)} ${String(total).padStart(7)} matches  p50 ${p50.toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(6)} ms  CPU ${Number.isFinite(cpuPerQuery) ? cpuPerQuery.toFixed(1).padStart(5) : "    ?"} ms  ${target ? (met ? "met" : "NOT MET") : met ? "(info) within" : "(info) over"}`,
      );
    }
    say(
      `load average while timing: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} on ${os.cpus().length} cores`,
    );
    say(`searchSite() timed directly (no HTTP), one connection, ${RUNS} runs a query (pages 1-3), target p99 <= ${TARGET_P99_MS} ms:`);
    for (const row of rows) console.log(row);
    if (databaseUrl) failed = (await overHttp(databaseUrl)) || failed;
    say(failed ? "target not met" : "target met");
  } finally {
    setDatabase(undefined);
    await drop();
  }
  process.exit(failed ? 1 : 0);
}

await main();

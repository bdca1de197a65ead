/**
 * `npm run bench`: serving speed of the public pages (docs/performance.md).
 *
 * 1. Builds the app (BUILD_DIR=build-bench).
 * 2. Loads a large data set (200 team members, 100,000 articles) into a fresh
 *    embedded database, and a small one (100 articles) into another.
 * 3. Starts the production server on loopback with request logging on (one
 *    JSON line per request, written to a file the bench counts), signs a
 *    staff member in to the dashboard (as every working day), and for /,
 *    /team, a lawyer, /insights, /insights?page=<last>, a post and a practice
 *    page measures requests per second and p50/p99 latency, cached and
 *    uncached (PAGE_CACHE=off), plus uncached p99 at one connection, and
 *    p50/p99 of page-cache misses at one connection (every request a page
 *    not stored yet: rendered, compressed and stored before it is sent).
 * 4. Measures a bare node:http server answering the same bytes from memory
 *    (the ceiling for one Node process) right after or before each of the
 *    app's cached runs (BENCH_ROUNDS pairs a route, back to back, the order
 *    alternating) and prints each route's median pair ratio to it, in
 *    requests per second and in CPU time per request (read from /proc; the
 *    one to trust when other work shares the machine).
 *    The target (issue 29) is the ratio to the same server sending the app's
 *    own header lines with the same bytes ("same-headers ratio", ≥ 0.8): the
 *    hit path's own cost. The ratio to the bare server (no headers but type
 *    and length) also counts the ~1.1 KB of headers (security, CSP, caching)
 *    every page sends; it is reported, without a target.
 * 5. Repeats /insights?page=<last> with 100 articles, and reports the gzipped
 *    JavaScript of each page (every file it loads, imports followed) against
 *    the budget of 6 KB, and any framework (React, React Router) file.
 * Prints a table, writes bench-results/bench-<timestamp>.json, and exits 1
 * when a target is missed.
 *
 * Load generator: wrk (Debian's `wrk`, C, one thread), never a Node one: a
 * Node load generator on the same two cores caps whatever it measures.
 *
 * Options (env): BENCH_SECONDS (uncached runs, default 5), BENCH_CONNECTIONS (default 50),
 * BENCH_ARTICLES (default 100000), BENCH_ROUNDS (cached/ceiling pairs of runs
 * per route; the median pair counts; default 20), BENCH_PAIR_SECONDS (each run
 * of a pair, default 1: short pairs with no pause between their runs, so that
 * both fall in the same state of a shared machine), BENCH_ONLY
 * ("cached" to skip the uncached part), BENCH_BUILD=0 to reuse build-bench,
 * BENCH_STAFF=0 (no staff visit before the cached pages), BENCH_REDIRECTS (exact redirects
 * loaded with the large data set, plus 20 regex rules, as a WordPress import leaves them; default 0:
 * the hit path's cost with many rules is this run against one without),
 * BENCH_ROUTES (names from the table, comma-separated: measure only those),
 * BENCH_NODE_ARGS (extra arguments for the app's node, space-separated, e.g.
 * V8 flags to try; they come after the production ones, server/node-args.js,
 * and a later flag wins), BENCH_CEILING_NODE_ARGS (the same for the bare
 * server, which runs with none by default).
 */
import { execFile, execSync, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { openDatabase, setDatabase } from "~/.server/db/client";
import { articles, headers, hours, redirects, team } from "~/.server/db/schema";
import { PAGE_SIZE } from "~/lib/pagination";
import { PRODUCTION_NODE_ARGS } from "../server/node-args.js";
import { cpuMs } from "./proc";
import { startServer, staffVisit, type RunningServer } from "../tests/e2e/support";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
// Runs of a cached/ceiling pair are short and back to back: this machine kind switches between a
// fast and a slow state in streaks of several seconds (docs/performance.md); a pair's
// ratio cancels the state only when both its runs fall in the same one.
const PAIR_SECONDS = Number(process.env.BENCH_PAIR_SECONDS ?? 1);
const ONLY = process.env.BENCH_ONLY ?? "";
const ONLY_ROUTES = (process.env.BENCH_ROUTES ?? "").split(",").filter(Boolean);
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
const CEILING_NODE_ARGS = (process.env.BENCH_CEILING_NODE_ARGS ?? "").split(" ").filter(Boolean);
const REDIRECTS = Number(process.env.BENCH_REDIRECTS ?? 0);
const MEMBERS = 200;
const BUILD_DIR = "build-bench";
/** JavaScript a public page may load, gzip, all files counted (issue 15). */
const JS_BUDGET = 6 * 1024;
/**
 * A cache hit costs little beyond a bare node:http server answering the same bytes with the same
 * headers (issue 29).
 */
const CEILING_RATIO = 0.8;
const UNCACHED_P99_MS = 25;
/** Seconds of page-cache misses a route (each request a page not stored yet). */
const MISS_SECONDS = 3;

const say = (message: string) => console.log(`[bench] ${message}`);
const run = promisify(execFile);

async function loadDataSet(dataDir: string, articleCount: number, memberCount: number) {
  const database = await openDatabase({ dataDir });
  setDatabase(database);
  const titles = ["Managing Partner", "Client Services Partner", "Partner", "Associate", "Law Clerk", "Legal Assistant"];
  const areas = ["insurance", "construction", "cyber"];
  const members = Array.from({ length: memberCount }, (_, i) => ({
    slug: `Member-${i}-Example`,
    full_name: `Member ${i} Example${String.fromCharCode(65 + (i % 26))}`,
    title: titles[i % titles.length],
    email: `member${i}@example.com`,
    extension: 100 + i,
    desc: "A lawyer of the firm. ".repeat(20),
    AOP: [areas[i % 3], ...(i % 5 === 0 ? [areas[(i + 1) % 3]] : [])],
    area_details: ["Appeals", "Insurance defence"],
    staff: [],
  }));
  await database.db.insert(team).values(members);
  const categories = ["insurance", "construction", "cyber", "events"];
  const start = Date.UTC(2010, 0, 1);
  const body = "<p>" + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(30) + "</p>";
  const batch = 2000;
  for (let offset = 0; offset < articleCount; offset += batch) {
    const rows = Array.from({ length: Math.min(batch, articleCount - offset) }, (_, j) => {
      const i = offset + j;
      return {
        slug: `Bench-Article-${i}`,
        title: `Bench Article ${i}`,
        category: categories[i % 4],
        news: i % 7 === 0,
        priority: i % 700 === 0,
        copy: body,
        date: "Monday, January 1, 2024",
        created_at: new Date(start + i * 60_000),
        updated_at: new Date(start + i * 60_000),
        status: "published",
        published_at: new Date(start + i * 60_000),
      };
    });
    await database.db.insert(articles).values(rows);
    if ((offset / batch) % 10 === 0) say(`  ${offset + rows.length}/${articleCount} articles`);
  }
  for (const name of ["team", "news", "insurance", "construction", "cyber"]) {
    await database.db.insert(headers).values({ name, value: name, header_text: `Header text for ${name}.` });
  }
  await database.db.insert(hours).values({ name: "hours", start_time: "9:00", end_time: "5:00" });
  if (articleCount === ARTICLES && REDIRECTS > 0) {
    // Old WordPress addresses (exact, some with ?p=), and regex rules the hot path must not run.
    for (let offset = 0; offset < REDIRECTS; offset += batch) {
      const rows = Array.from({ length: Math.min(batch, REDIRECTS - offset) }, (_, j) => {
        const i = offset + j;
        return i % 4 === 0
          ? { source: "/", query: `p=${i}`, target: `/post/Bench-Article-${i % articleCount}`, origin: "wordpress" }
          : {
              source: `/20${10 + (i % 12)}/0${1 + (i % 9)}/old-post-${i}`,
              target: `/post/Bench-Article-${i % articleCount}`,
              origin: "wordpress",
            };
      });
      await database.db.insert(redirects).values(rows);
    }
    await database.db.insert(redirects).values(
      Array.from({ length: 20 }, (_, i) => ({
        match: "regex",
        source: `^/old-section-${i}/(.*)$`,
        target: "/insights?q=$1",
        origin: "manual",
      })),
    );
    say(`  ${REDIRECTS} redirects and 20 regex rules`);
  }
  await database.db.execute(sql`analyze`);
  setDatabase(undefined);
  await database.close();
}

type Result = { rps: number; p50: number; p99: number; errors: number; non2xx: number; requests: number };

/**
 * One wrk run, after one uncounted second at the same load unless `warmUp` is false (the runs of
 * the cached/ceiling rounds, which follow one another on the same route). Latencies in ms.
 */
async function measure(
  url: string,
  connections = CONNECTIONS,
  seconds = SECONDS,
  warmUp = true,
  script = "scripts/wrk-report.lua",
): Promise<Result> {
  const wrk = (duration: number) =>
    run("wrk", ["-t1", `-c${connections}`, `-d${duration}s`, "--timeout", "10s", "-s", path.resolve(script), url], {
      maxBuffer: 1 << 20,
    });
  // One second at the same load first, not counted: the figures are the steady state, not the
  // garbage the previous run (often 50 connections on another route) left for this one to collect.
  if (warmUp) await wrk(1);
  const { stdout } = await wrk(seconds);
  const line = stdout.split("\n").find((l) => l.startsWith("WRK_JSON "));
  if (!line) throw new Error(`wrk printed no report for ${url}:\n${stdout}`);
  /** The report scripts/wrk-report.lua prints (times in µs). */
  const r = JSON.parse(line.slice("WRK_JSON ".length)) as {
    requests: number;
    duration_us: number;
    p50_us: number;
    p99_us: number;
    connect: number;
    read: number;
    write: number;
    timeout: number;
    status: number;
  };
  return {
    rps: Math.round(r.requests / (r.duration_us / 1e6)),
    p50: Math.round(r.p50_us / 100) / 10,
    p99: Math.round(r.p99_us / 100) / 10,
    errors: r.connect + r.read + r.write + r.timeout,
    non2xx: r.status,
    requests: r.requests,
  };
}

/**
 * The ceiling: a bare node:http server answering the same bodies from memory. With `heads`, the
 * same server also sends the app's own header lines (below): the same bytes with the same headers.
 */
function startCeiling(
  bodies: Record<string, Buffer>,
  heads?: Record<string, [string, string][]>,
): Promise<{ port: number; child: ChildProcess }> {
  const file = path.join(os.tmpdir(), `bench-bodies-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries(Object.entries(bodies).map(([k, v]) => [k, v.toString("base64")]))));
  const args = [file];
  if (heads) {
    const file = path.join(os.tmpdir(), `bench-heads-${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify(heads));
    args.push("", file);
  }
  // A bare Node process: fork() would otherwise pass on this script's own execArgv (tsx's loader).
  const child = fork(path.resolve("scripts/bench-ceiling.js"), args, {
    execArgv: CEILING_NODE_ARGS,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve) => child.once("message", (port) => resolve({ port: port as number, child })));
}

/** Every script file a page loads (its module scripts, preloads and their imports, followed), with gzip sizes. */
async function pageJs(base: string, pagePath: string): Promise<{ files: string[]; gz: Map<string, number>; framework: string[] }> {
  const html = await (await fetch(base + pagePath)).text();
  const queue: string[] = [];
  for (const m of html.matchAll(
    /<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"|<script[^>]+src="([^"]+)"|import\("([^"]+\.js)"\)|import "([^"]+\.js)"/g,
  )) {
    const f = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (f) queue.push(f);
  }
  const gz = new Map<string, number>();
  const framework: string[] = [];
  while (queue.length) {
    const file = new URL(queue.shift()!, base).pathname;
    if (gz.has(file)) continue;
    const text = await (await fetch(base + file)).text();
    gz.set(file, zlib.gzipSync(Buffer.from(text), { level: 9 }).length);
    // React, React DOM or React Router in the file (their own markers, whatever the chunk is called).
    if (/react\.dev|reactjs\.org\/docs\/error-decoder|__reactRouterContext|react-router/i.test(text) || /\/framework-/.test(file))
      framework.push(file);
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+\.js)["']/g)) queue.push(new URL(m[1], base + file).pathname);
  }
  return { files: [...gz.keys()], gz, framework };
}

/** Request log lines written since `offset` (the file is appended to by the server). */
function logLinesSince(file: string, offset: number): { lines: number; size: number } {
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, "r");
  const buffer = Buffer.alloc(size - offset);
  fs.readSync(fd, buffer, 0, buffer.length, offset);
  fs.closeSync(fd);
  let lines = 0;
  for (const line of buffer.toString("utf8").split("\n")) if (line.includes('"msg":"request"')) lines++;
  return { lines, size };
}

const localUrl = (server: RunningServer) => `http://127.0.0.1:${server.port}`;

async function main() {
  const started = Date.now();
  if (process.env.BENCH_BUILD !== "0") {
    say("building…");
    execSync("npx react-router build", { stdio: "ignore", env: { ...process.env, BUILD_DIR } });
  }

  const bigDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-big-"));
  const smallDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-small-"));
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-logs-"));
  say(`loading ${MEMBERS} team members and ${ARTICLES} articles…`);
  await loadDataSet(bigDir, ARTICLES, MEMBERS);
  say("loading 100 articles (small archive)…");
  await loadDataSet(smallDir, 100, 20);

  const env = { BUILD_DIR, SEED_DEMO: "false", LOG_LEVEL: "info" };
  const lastPage = Math.ceil(ARTICLES / PAGE_SIZE);
  const routes: Record<string, string> = {
    "/": "/",
    "/team": "/team",
    lawyer: "/lawyer/Member-7-Example",
    "/insights": "/insights",
    "/insights?page=<last>": `/insights?page=${lastPage}`,
    post: `/post/Bench-Article-${ARTICLES - 10}`,
    practice: "/cyber?tab=insights",
  };
  const routeNames = Object.keys(routes).join(", ");
  for (const name of Object.keys(routes)) if (ONLY_ROUTES.length && !ONLY_ROUTES.includes(name)) delete routes[name];
  if (!Object.keys(routes).length) throw new Error(`BENCH_ROUTES names none of: ${routeNames}`);

  const results: Record<string, Record<string, unknown>> = {};
  const failures: string[] = [];
  let server: RunningServer | undefined;
  const servers: RunningServer[] = [];
  let ceiling: { port: number; child: ChildProcess } | undefined;
  let sameHead: { port: number; child: ChildProcess } | undefined;
  try {
    say("starting the production server (page cache on, request log on)…");
    const cachedLog = path.join(logDir, "cached.log");
    server = await startServer({ dataDir: bigDir, env, logFile: cachedLog, nodeArgs: NODE_ARGS });
    servers.push(server);
    // As in production, where staff use the dashboard every day: better-auth has run in this process
    // before the public pages are measured (as on a firm's server every working day).
    if (process.env.BENCH_STAFF !== "0") {
      say("a staff member signs in and opens the dashboard…");
      await staffVisit(localUrl(server));
    }
    const bodies: Record<string, Buffer> = {};
    const heads: Record<string, [string, string][]> = {};
    for (const [name, p] of Object.entries(routes)) {
      // As wrk asks (no Accept-Encoding): the identity bytes and the headers sent with them.
      const res = await fetch(localUrl(server) + p, { headers: { "accept-encoding": "identity" } });
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
      bodies[p] = Buffer.from(await res.arrayBuffer());
      // The app's header lines but those node:http writes for both servers alike (Date, Connection,
      // Keep-Alive) and the length, which the ceiling sets from the body it sends.
      heads[p] = [];
      res.headers.forEach((value, name) => {
        if (!["date", "connection", "keep-alive", "content-length"].includes(name)) heads[p].push([name, value]);
      });
      results[name] = { path: p, bytes: bodies[p].length, headBytes: heads[p].reduce((n, [k, v]) => n + `${k}: ${v}\r\n`.length, 0) };
    }

    say("JavaScript per page…");
    for (const [name, p] of Object.entries(routes)) {
      const j = await pageJs(localUrl(server), p);
      results[name].jsFiles = j.files.length;
      results[name].jsGzipBytes = [...j.gz.values()].reduce((a, b) => a + b, 0);
      results[name].jsFramework = j.framework;
      results[name].jsAdminOrEditor = j.files.filter((f) => /admin|tiptap|editor|prosemirror/i.test(f));
    }

    // The ceiling runs beside the app; the two are measured alternately, route by route.
    ceiling = await startCeiling(bodies);
    // A second ceiling that sends the app's own headers with the same bytes (issue 29's ceiling): the
    // ratio to it is the hit path's own cost; the bare ceiling's also counts the ~1.1 KB of headers
    // every page sends (security headers, CSP, caching), which node:http, the kernel and wrk handle alike.
    sameHead = await startCeiling(bodies, heads);
    for (const [name, p] of Object.entries(routes)) {
      say(`cached ${name} and the node:http ceiling (${ROUNDS} rounds of ${PAIR_SECONDS} s runs)…`);
      const appUrl = localUrl(server) + p;
      const ceilingUrl = `http://127.0.0.1:${ceiling.port}${p}`;
      const sameHeadUrl = `http://127.0.0.1:${sameHead.port}${p}`;
      // One uncounted second of each server on this route first (the garbage of the previous route, V8's
      // compiler); then the rounds follow one another with no pause: app, ceiling, same-head ceiling, and
      // the next round in the reverse order. The app's and the ceiling's runs of a round are back to back,
      // so both fall in the same state of the machine (docs/performance.md); the order
      // alternates, so neither side is always the one measured first. The median round counts.
      // Also the CPU time each server spends per request: unlike requests per second, it hardly
      // moves when other work shares the machine (the figure to trust on a busy machine).
      for (const url of [appUrl, ceilingUrl, sameHeadUrl]) await measure(url, CONNECTIONS, 1, false);
      await new Promise((r) => setTimeout(r, 300)); // the warm-up's log lines are written, and not counted
      const logOffset = fs.statSync(cachedLog).size;
      const pairs: {
        app: Result;
        ceiling: Result;
        ratio: number;
        sameHeadRatio: number;
        cpuRatio: number;
        appCpuUs: number;
        ceilingCpuUs: number;
      }[] = [];
      let counted = 0;
      const appPid = server.process.pid!;
      const ceilingPid = ceiling.child.pid!;
      for (let round = 0; round < ROUNDS; round++) {
        const runs: Record<"app" | "ceiling" | "same", { result: Result; cpu: number }> = {} as never;
        const order = [
          ["app", appUrl, appPid],
          ["ceiling", ceilingUrl, ceilingPid],
          ["same", sameHeadUrl, undefined],
        ] as const;
        for (const [side, url, pid] of round % 2 ? [...order].reverse() : order) {
          const before = pid ? cpuMs(pid) : 0;
          const result = await measure(url, CONNECTIONS, PAIR_SECONDS, false);
          runs[side] = { result, cpu: pid ? cpuMs(pid) - before : 0 };
        }
        const c = runs.app.result;
        const ce = runs.ceiling.result;
        counted += c.requests;
        const appCpuUs = (runs.app.cpu * 1000) / Math.max(1, c.requests);
        const ceilingCpuUs = (runs.ceiling.cpu * 1000) / Math.max(1, ce.requests);
        pairs.push({
          app: c,
          ceiling: ce,
          ratio: c.rps / ce.rps,
          sameHeadRatio: c.rps / runs.same.result.rps,
          cpuRatio: ceilingCpuUs / appCpuUs,
          appCpuUs,
          ceilingCpuUs,
        });
      }
      await new Promise((r) => setTimeout(r, 300)); // the last batch of log lines is written
      const logged = logLinesSince(cachedLog, logOffset).lines;
      const byCpu = [...pairs].sort((a, b) => a.cpuRatio - b.cpuRatio)[Math.floor(pairs.length / 2)];
      results[name].cpuRatio = Math.round(byCpu.cpuRatio * 100) / 100;
      results[name].cpuUsPerRequest = { app: Math.round(byCpu.appCpuUs), ceiling: Math.round(byCpu.ceilingCpuUs) };
      const sameHeadRatios = pairs.map((x) => x.sameHeadRatio).sort((a, b) => a - b);
      results[name].sameHeadRatio = Math.round(sameHeadRatios[Math.floor(sameHeadRatios.length / 2)] * 100) / 100;
      pairs.sort((a, b) => a.ratio - b.ratio);
      const middle = pairs[Math.floor(pairs.length / 2)];
      results[name].cached = middle.app;
      results[name].ceiling = middle.ceiling;
      // The median: the middle pair's ratio, or the mean of the two middle ones when the count is even.
      const median = pairs.length % 2 ? middle.ratio : (middle.ratio + pairs[pairs.length / 2 - 1].ratio) / 2;
      results[name].ratio = Math.round(median * 100) / 100;
      results[name].ratios = pairs.map((x) => Math.round(x.ratio * 100) / 100);
      // One log line per request: every completed request of the measured runs, plus the few
      // in flight when wrk stopped (at most one per connection).
      results[name].logLinesPerRequest = Math.round((logged / Math.max(1, counted)) * 1000) / 1000;
      if (logged < counted) failures.push(`${name}: ${logged} request log lines for ${counted} requests`);
    }
    // What a visitor's first request of a page costs with the cache on: rendered, compressed (brotli and
    // gzip) and stored before it is sent. Every request a new address (scripts/wrk-miss.lua), one connection.
    for (const [name, p] of Object.entries(routes)) {
      say(`page-cache misses of ${name} at 1 connection…`);
      results[name].miss1 = await measure(localUrl(server) + p, 1, MISS_SECONDS, true, "scripts/wrk-miss.lua");
    }
    ceiling.child.kill();
    ceiling = undefined;
    sameHead?.child.kill();
    sameHead = undefined;
    await server.stop();
    servers.length = 0;

    let growth = NaN;
    let big: Result | undefined;
    let small: Result | undefined;
    if (ONLY !== "cached") {
      say("starting the production server (page cache off)…");
      server = await startServer({
        dataDir: bigDir,
        env: { ...env, PAGE_CACHE: "off" },
        logFile: path.join(logDir, "uncached.log"),
        nodeArgs: NODE_ARGS,
      });
      servers.push(server);
      for (const [name, p] of Object.entries(routes)) {
        say(`uncached ${name}…`);
        results[name].uncached = await measure(localUrl(server) + p);
        results[name].uncached1 = await measure(localUrl(server) + p, 1);
      }
      await server.stop();
      servers.length = 0;

      // The archive's growth: only when its last page is among the routes measured.
      if (routes["/insights?page=<last>"]) {
        say("small archive (100 articles), uncached, last page of /insights…");
        server = await startServer({ dataDir: smallDir, env: { ...env, PAGE_CACHE: "off" }, logFile: path.join(logDir, "small.log") });
        servers.push(server);
        small = await measure(localUrl(server) + `/insights?page=${Math.ceil(100 / PAGE_SIZE)}`, 1);
        await server.stop();
        servers.length = 0;
        big = results["/insights?page=<last>"].uncached1 as Result;
        growth = Math.round((big.p50 / Math.max(0.01, small.p50)) * 100) / 100;
      }
    }

    console.log("");
    console.log(
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${new Date().toISOString()}`,
    );
    console.log(
      `Load: wrk -t1 -c${CONNECTIONS} -d${SECONDS}s (after 1 s uncounted), loopback; cached and ceiling in ${ROUNDS} back-to-back pairs of ${PAIR_SECONDS} s runs (1 s of each uncounted first, then none; the order alternates), median pair; request log on; data set ${MEMBERS} members, ${ARTICLES} articles; app: node ${[...PRODUCTION_NODE_ARGS, ...NODE_ARGS].join(" ")}; ceiling: node ${CEILING_NODE_ARGS.join(" ") || "(no flags)"}.`,
    );
    console.log("");
    const head = [
      "route",
      "bytes",
      "head",
      "cached rps",
      "p50",
      "p99",
      "ceiling rps",
      "ratio (pairs)",
      "same-headers ratio",
      "CPU µs/req app/ceiling",
      "CPU ratio",
      "log/req",
      "miss p50 @1",
      "p99",
      "uncached rps",
      "p99",
      "p99 @1",
      "JS files",
      "JS gz",
    ];
    const fmt = (r: unknown, key: keyof Result) => (r ? String((r as Result)[key]) : "-");
    const rows = Object.entries(results).map(([name, r]) => [
      name,
      String(r.bytes),
      String(r.headBytes),
      fmt(r.cached, "rps"),
      fmt(r.cached, "p50"),
      fmt(r.cached, "p99"),
      fmt(r.ceiling, "rps"),
      `${r.ratio as number} (${(r.ratios as number[]).join(" ")})`,
      String(r.sameHeadRatio),
      `${(r.cpuUsPerRequest as { app: number }).app}/${(r.cpuUsPerRequest as { ceiling: number }).ceiling}`,
      String(r.cpuRatio),
      String(r.logLinesPerRequest),
      fmt(r.miss1, "p50"),
      fmt(r.miss1, "p99"),
      fmt(r.uncached, "rps"),
      fmt(r.uncached, "p99"),
      fmt(r.uncached1, "p99"),
      String(r.jsFiles),
      `${((r.jsGzipBytes as number) / 1024).toFixed(1)} KB`,
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
    console.log(line(head));
    for (const r of rows) console.log(line(r));
    console.log("");
    if (big && small)
      console.log(
        `/insights last page, uncached p50 at 1 connection: ${big.p50} ms with ${ARTICLES} articles vs ${small.p50} ms with 100 (×${growth}; target ≤ 1.5)`,
      );
    console.log(
      `JavaScript budget: ${(JS_BUDGET / 1024).toFixed(1)} KB gzip per public page, all files counted; no React, React DOM or React Router file`,
    );

    for (const [name, r] of Object.entries(results)) {
      const c = r.cached as Result;
      if (c.errors || c.non2xx) failures.push(`${name}: errors during the cached run`);
      if (!c.requests) failures.push(`${name}: no request completed in the cached run`);
      const m = r.miss1 as Result;
      if (m.errors || m.non2xx || !m.requests) failures.push(`${name}: errors or no completed request during the page-cache misses`);
      if ((r.sameHeadRatio as number) < CEILING_RATIO)
        failures.push(
          `${name}: cached at ${r.sameHeadRatio as number} of node:http sending the same bytes with the same headers (target ≥ ${CEILING_RATIO})`,
        );
      if (r.uncached) {
        const u = r.uncached as Result;
        const u1 = r.uncached1 as Result;
        if (u.errors || u.non2xx) failures.push(`${name}: errors during the uncached run`);
        if (!u.requests || !u1.requests) failures.push(`${name}: no request completed in an uncached run`);
        if (u1.p99 > UNCACHED_P99_MS) failures.push(`${name}: uncached p99 ${u1.p99} ms at 1 connection (target ≤ ${UNCACHED_P99_MS})`);
      }
      if ((r.jsGzipBytes as number) > JS_BUDGET) failures.push(`${name}: ${r.jsGzipBytes as number} B of JavaScript (budget ${JS_BUDGET})`);
      if ((r.jsFramework as string[]).length) failures.push(`${name}: loads framework code ${(r.jsFramework as string[]).join(", ")}`);
      if ((r.jsAdminOrEditor as string[]).length)
        failures.push(`${name}: loads admin/editor code ${(r.jsAdminOrEditor as string[]).join(", ")}`);
    }
    if (growth > 1.5) failures.push(`/insights last page grows ×${growth} from 100 to ${ARTICLES} articles (target ≤ 1.5)`);

    fs.mkdirSync("bench-results", { recursive: true });
    const out = path.join("bench-results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(
      out,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: {
            cpus: os.cpus().length,
            model: os.cpus()[0]?.model,
            memGiB: Math.round(os.totalmem() / 2 ** 30),
            node: process.version,
          },
          settings: {
            loadGenerator: "wrk -t1",
            seconds: SECONDS,
            pairSeconds: PAIR_SECONDS,
            connections: CONNECTIONS,
            rounds: ROUNDS,
            articles: ARTICLES,
            members: MEMBERS,
          },
          routes: results,
          insightsLastPage: big && small ? { bigP50: big.p50, smallP50: small.p50, growth } : null,
          jsBudget: JS_BUDGET,
          failures,
          durationSeconds: Math.round((Date.now() - started) / 1000),
        },
        null,
        2,
      ),
    );
    console.log(`\nWrote ${out}`);
    if (failures.length) {
      console.log(`\nBelow target:\n- ${failures.join("\n- ")}`);
      process.exitCode = 1;
    } else {
      console.log("\nAll targets met.");
    }
  } finally {
    ceiling?.child.kill();
    sameHead?.child.kill();
    await Promise.all(servers.map((s) => s.stop()));
    for (const dir of [bigDir, smallDir, logDir]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

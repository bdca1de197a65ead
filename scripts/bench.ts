/**
 * `npm run bench`: serving speed of the public pages (docs/performance.md).
 *
 * 1. Builds the app (BUILD_DIR=build-bench).
 * 2. Loads a large data set (200 team members, 100,000 articles) into a fresh
 *    embedded database, and a small one (100 articles) into another.
 * 3. Starts the production server on loopback, and for /, /team, a lawyer,
 *    /insights, /insights?page=<last>, a post and a practice page measures
 *    requests per second and p50/p99 latency, cached and uncached
 *    (PAGE_CACHE=off), plus uncached p99 at one connection.
 * 4. Measures a minimal node:http server answering the same bytes from memory
 *    (the ceiling for one Node process) and prints each route's ratio to it.
 * 5. Repeats /insights?page=<last> with 100 articles, and reports the gzipped
 *    JavaScript of each page against the budget (framework + 30 KB).
 * Prints a table and writes bench-results/bench-<timestamp>.json.
 *
 * Options (env): BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 50),
 * BENCH_ARTICLES (default 100000).
 */
import { execSync, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { openDatabase, setDatabase } from "~/.server/db/client";
import { articles, headers, hours, team } from "~/.server/db/schema";
import { PAGE_SIZE } from "~/lib/pagination";
import { startServer, type RunningServer } from "../tests/e2e/support";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const MEMBERS = 200;
const BUILD_DIR = "build-bench";

const say = (message: string) => console.log(`[bench] ${message}`);

async function loadDataSet(dataDir: string, articleCount: number, memberCount: number) {
  const database = await openDatabase({ dataDir });
  setDatabase(database);
  const titles = ["Managing Partner", "Client Services Partner", "Partner", "Associate", "Law Clerk", "Legal Assistant"];
  const areas = ["insurance", "construction", "cyber"];
  const members = Array.from({ length: memberCount }, (_, i) => ({
    slug: `Member-${i}-Example`,
    full_name: `Member ${i} Example${String.fromCharCode(65 + (i % 26))}`,
    title: titles[i % titles.length]!,
    email: `member${i}@example.com`,
    extension: 100 + i,
    desc: "A lawyer of the firm. ".repeat(20),
    AOP: [areas[i % 3]!, ...(i % 5 === 0 ? [areas[(i + 1) % 3]!] : [])],
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
        category: categories[i % 4]!,
        news: i % 7 === 0,
        priority: i % 700 === 0,
        copy: body,
        date: "Monday, January 1, 2024",
        created_at: new Date(start + i * 60_000),
        updated_at: new Date(start + i * 60_000),
      };
    });
    await database.db.insert(articles).values(rows);
    if ((offset / batch) % 10 === 0) say(`  ${offset + rows.length}/${articleCount} articles`);
  }
  for (const name of ["team", "news", "insurance", "construction", "cyber"]) {
    await database.db.insert(headers).values({ name, value: name, header_text: `Header text for ${name}.` });
  }
  await database.db.insert(hours).values({ name: "hours", start_time: "9:00", end_time: "5:00" });
  await database.db.execute(sql`analyze`);
  setDatabase(undefined);
  await database.close();
}

type Result = { rps: number; p50: number; p99: number; errors: number; non2xx: number; requests: number };

async function measure(url: string, connections = CONNECTIONS, seconds = SECONDS): Promise<Result> {
  // One second at the same load first, not counted: the figures are the steady state, not the
  // garbage the previous run (often 50 connections on another route) left for this one to collect.
  await autocannon({ url, connections, duration: 1, pipelining: 1 });
  const r = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

/** The ceiling: a bare node:http server answering the same bytes from memory. */
function startCeiling(bodies: Record<string, Buffer>): Promise<{ port: number; child: ChildProcess }> {
  const file = path.join(os.tmpdir(), `bench-bodies-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries(Object.entries(bodies).map(([k, v]) => [k, v.toString("base64")]))));
  const child = fork(path.resolve("scripts/bench-ceiling.js"), [file], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve) => child.once("message", (port) => resolve({ port: port as number, child })));
}

async function pageJs(base: string, pagePath: string): Promise<{ files: string[]; gz: Map<string, number> }> {
  const html = await (await fetch(base + pagePath)).text();
  const files = new Set<string>();
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"|<script[^>]+src="([^"]+)"|import\("([^"]+\.js)"\)|import "([^"]+\.js)"/g)) {
    const f = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (f?.startsWith("/assets/")) files.add(f);
  }
  const gz = new Map<string, number>();
  for (const f of files) {
    const bytes = Buffer.from(await (await fetch(base + f)).arrayBuffer());
    gz.set(f, zlib.gzipSync(bytes, { level: 9 }).length);
  }
  return { files: [...files], gz };
}

async function main() {
  const started = Date.now();
  say("building…");
  execSync("npx react-router build", { stdio: "ignore", env: { ...process.env, BUILD_DIR } });

  const bigDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-big-"));
  const smallDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-small-"));
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

  const results: Record<string, Record<string, unknown>> = {};
  let server: RunningServer | undefined;
  const servers: RunningServer[] = [];
  try {
    say("starting the production server (page cache on)…");
    server = await startServer({ dataDir: bigDir, env, quiet: true });
    servers.push(server);
    const bodies: Record<string, Buffer> = {};
    for (const [name, p] of Object.entries(routes)) {
      const res = await fetch(server.url + p);
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
      bodies[p] = Buffer.from(await res.arrayBuffer());
      results[name] = { path: p, bytes: bodies[p]!.length };
    }
    for (const [name, p] of Object.entries(routes)) {
      say(`cached ${name}…`);
      results[name]!.cached = await measure(server.url + p);
    }

    say("JavaScript per page…");
    const js: Record<string, { files: string[]; gz: Map<string, number> }> = {};
    for (const [name, p] of Object.entries(routes)) js[name] = await pageJs(server.url, p);
    const common = Object.values(js)
      .map((j) => new Set(j.files))
      .reduce((a, b) => new Set([...a].filter((f) => b.has(f))));
    const anyGz = Object.values(js)[0]!.gz;
    const frameworkGz = [...common].reduce((sum, f) => sum + (anyGz.get(f) ?? 0), 0);
    for (const [name, j] of Object.entries(js)) {
      const total = [...j.gz.values()].reduce((a, b) => a + b, 0);
      results[name]!.jsGzipBytes = total;
      results[name]!.jsAdminOrEditor = j.files.filter((f) => /admin|tiptap|editor|prosemirror/i.test(f));
    }
    await server.stop();
    servers.length = 0;

    say("starting the production server (page cache off)…");
    server = await startServer({ dataDir: bigDir, env: { ...env, PAGE_CACHE: "off" }, quiet: true });
    servers.push(server);
    for (const [name, p] of Object.entries(routes)) {
      say(`uncached ${name}…`);
      results[name]!.uncached = await measure(server.url + p);
      results[name]!.uncached1 = await measure(server.url + p, 1);
    }
    await server.stop();
    servers.length = 0;

    say("small archive (100 articles), uncached, last page of /insights…");
    server = await startServer({ dataDir: smallDir, env: { ...env, PAGE_CACHE: "off" }, quiet: true });
    servers.push(server);
    const smallLast = `/insights?page=${Math.ceil(100 / PAGE_SIZE)}`;
    const small = await measure(server.url + smallLast, 1);
    await server.stop();
    servers.length = 0;

    say("ceiling: node:http answering the same bytes…");
    const ceiling = await startCeiling(bodies);
    for (const [name, p] of Object.entries(routes)) {
      const c = await measure(`http://127.0.0.1:${ceiling.port}${p}`);
      results[name]!.ceiling = c;
      results[name]!.ratio = Math.round(((results[name]!.cached as Result).rps / c.rps) * 100) / 100;
    }
    ceiling.child.kill();

    const big = results["/insights?page=<last>"]!.uncached1 as Result;
    const growth = Math.round((big.p50 / Math.max(0.01, small.p50)) * 100) / 100;
    const budget = frameworkGz + 30 * 1024;

    console.log("");
    console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${new Date().toISOString()}`);
    console.log(`Load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, loopback; data set ${MEMBERS} members, ${ARTICLES} articles.`);
    console.log("");
    const head = ["route", "bytes", "cached rps", "p50", "p99", "ceiling rps", "ratio", "uncached rps", "p99", "p99 @1", "JS gz"];
    const rows = Object.entries(results).map(([name, r]) => {
      const c = r.cached as Result;
      const u = r.uncached as Result;
      const u1 = r.uncached1 as Result;
      const ce = r.ceiling as Result;
      return [name, String(r.bytes), String(c.rps), `${c.p50}`, `${c.p99}`, String(ce.rps), String(r.ratio), String(u.rps), `${u.p99}`, `${u1.p99}`, `${((r.jsGzipBytes as number) / 1024).toFixed(1)} KB`];
    });
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
    console.log(line(head));
    for (const r of rows) console.log(line(r));
    console.log("");
    console.log(`/insights last page, uncached p50 at 1 connection: ${big.p50} ms with ${ARTICLES} articles vs ${small.p50} ms with 100 (×${growth}; target ≤ 1.5)`);
    console.log(`JavaScript budget: framework ${(frameworkGz / 1024).toFixed(1)} KB gz + 30 KB = ${(budget / 1024).toFixed(1)} KB per page`);

    const failures: string[] = [];
    for (const [name, r] of Object.entries(results)) {
      const c = r.cached as Result;
      const u = r.uncached as Result;
      if (c.errors || c.non2xx || u.errors || u.non2xx) failures.push(`${name}: errors during the run`);
      if (!c.requests || !u.requests || !(r.uncached1 as Result).requests) failures.push(`${name}: no request completed in a run`);
      if ((r.ratio as number) < 0.7) failures.push(`${name}: cached at ${r.ratio} of the node:http ceiling (target ≥ 0.7)`);
      if ((r.uncached1 as Result).p99 > 25) failures.push(`${name}: uncached p99 ${(r.uncached1 as Result).p99} ms at 1 connection (target ≤ 25)`);
      if ((r.jsGzipBytes as number) > budget) failures.push(`${name}: ${r.jsGzipBytes} B of JavaScript (budget ${budget})`);
      if ((r.jsAdminOrEditor as string[]).length) failures.push(`${name}: loads admin/editor code ${(r.jsAdminOrEditor as string[]).join(", ")}`);
    }
    if (growth > 1.5) failures.push(`/insights last page grows ×${growth} from 100 to ${ARTICLES} articles (target ≤ 1.5)`);

    fs.mkdirSync("bench-results", { recursive: true });
    const out = path.join("bench-results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(
      out,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
          settings: { seconds: SECONDS, connections: CONNECTIONS, articles: ARTICLES, members: MEMBERS },
          routes: results,
          insightsLastPage: { bigP50: big.p50, smallP50: small.p50, growth },
          jsBudget: { frameworkGz, budget },
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
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(bigDir, { recursive: true, force: true });
    fs.rmSync(smallDir, { recursive: true, force: true });
  }
}

await main();

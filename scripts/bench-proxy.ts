/**
 * `npm run bench:proxy`: the site as several machines run it, on loopback —
 * one PostgreSQL database (TEST_DATABASE_URL or the machine's), one bucket
 * (s3rver), two production instances, and nginx with the reference
 * configuration (deploy/nginx/harrow-kline.conf) in front. It measures:
 *
 * 1. Throughput of cached public pages through the proxy against the same
 *    nginx serving the same bytes from a file — the body from a file with the
 *    same response headers (CSP, security headers, ETag…) added by nginx — in
 *    the same run, with `wrk` (Debian's package), alternating, median of
 *    BENCH_ROUNDS runs each. Target: ≥ 0.9. Also shown: the bare file (no
 *    extra headers) and nginx's CPU time per request, which stays meaningful
 *    when other work shares the machine.
 * 2. Freshness: a staff save through one instance, then how long until every
 *    request through the proxy shows the change (several saves, pollers at
 *    PROXY_POLLERS connections). Target: ≤ 1 s.
 *
 * It prints figures and exits 1 when a target is missed; it is not a timed test.
 * Options (env): BENCH_SECONDS (8), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50),
 * FRESHNESS_SAVES (8), PROXY_POLLERS (8).
 */
import { execFileSync, execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, ADMIN_EMAIL, ADMIN_PASSWORD } from "../tests/e2e/support";
import { signInCookie, startCluster, type Cluster } from "../tests/support/cluster";
import { nginxAvailable } from "../tests/support/nginx";
import { median } from "./wrk";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SAVES = Number(process.env.FRESHNESS_SAVES ?? 8);
const POLLERS = Number(process.env.PROXY_POLLERS ?? 8);
const BUILD_DIR = "build-bench-proxy";
const PAGES = ["/", "/team", "/insights"];

type WrkResult = { rps: number; p50: string; p99: string; errors: number; cpuUsPerRequest: number };

/** CPU time (user + system, µs) the nginx workers have used so far. */
function workerCpuUs(pids: number[]): number {
  const tick = 1_000_000 / 100; // USER_HZ
  let total = 0;
  for (const pid of pids) {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    total += (Number(fields[11]) + Number(fields[12])) * tick;
  }
  return total;
}

function wrk(url: string, workers: number[]): WrkResult {
  const cpuBefore = workerCpuUs(workers);
  const out = execFileSync("wrk", ["-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency", url], { encoding: "utf8" });
  const cpu = workerCpuUs(workers) - cpuBefore;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? "?";
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "?";
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0);
  return { rps, p50, p99, errors, cpuUsPerRequest: total ? cpu / total : 0 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An nginx string literal for a header value (single quotes around values holding double quotes). */
function literal(value: string): string | undefined {
  if (value.includes("$") || value.includes("\\") || (value.includes('"') && value.includes("'"))) return undefined;
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}

/** Headers nginx writes itself for a file (or that describe the connection), not copied. */
const OWN_HEADERS = new Set([
  "content-length",
  "content-type",
  "date",
  "server",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "last-modified",
  "accept-ranges",
  "x-proxy-cache",
]);

type Row = { page: string; bytes: number; headerBytes: number; proxy: WrkResult[]; file: WrkResult[]; bare: WrkResult[] };

async function throughput(cluster: Cluster, staticUrl: string, staticDir: string, staticConf: string, staticPort: number) {
  // The responses a visitor gets through the proxy (no Accept-Encoding, as wrk sends): each body
  // into a file, served by the same nginx twice: with the same headers (the same bytes), and bare.
  const rows: Row[] = [];
  const locations: string[] = [];
  for (const [i, page] of PAGES.entries()) {
    const get = () => fetch(`${cluster.url}${page}`, { headers: { "accept-encoding": "identity" } });
    await get();
    const response = await get().catch(get); // (once more if nginx had closed the idle connection)
    const body = Buffer.from(await response.arrayBuffer());
    fs.writeFileSync(path.join(staticDir, `page-${i}.html`), body);
    const adds: string[] = [];
    let headerBytes = 0;
    response.headers.forEach((value, name) => {
      headerBytes += name.length + value.length + 4;
      const quoted = literal(value);
      if (!OWN_HEADERS.has(name) && quoted) adds.push(`add_header ${name} ${quoted};`);
    });
    const type = literal(response.headers.get("content-type") ?? "text/html");
    locations.push(`        location = /page-${i}.html { types { } default_type ${type}; etag off; ${adds.join(" ")} }`);
    locations.push(`        location = /bare-${i}.html { types { } default_type ${type}; try_files /page-${i}.html =404; }`);
    rows.push({ page, bytes: body.length, headerBytes, proxy: [], file: [], bare: [] });
  }
  // The file side gets the proxy location's own file settings (deploy/nginx): `tcp_nopush off` (with
  // Debian's default a page over one segment waits ~40 ms for a delayed ACK) and the same open_file_cache.
  const fileSettings = ["tcp_nopush off;", "open_file_cache max=10000 inactive=60s;", "open_file_cache_valid 60s;"]
    .map((d) => `        ${d}\n`)
    .join("");
  fs.writeFileSync(
    staticConf,
    `    server {\n        listen 127.0.0.1:${staticPort};\n        root ${staticDir};\n${fileSettings}${locations.join("\n")}\n    }\n`,
  );
  await cluster.nginx.reload();
  const workers = cluster.nginx.workerPids();
  for (const [i, row] of rows.entries()) {
    const urls = { proxy: `${cluster.url}${row.page}`, file: `${staticUrl}/page-${i}.html`, bare: `${staticUrl}/bare-${i}.html` };
    const check = await fetch(urls.file);
    if (check.status !== 200 || !check.headers.get("content-security-policy"))
      throw new Error(`the static copy of ${row.page} is not served with its headers`);
    // Warm all three (the proxy's cache, the instances' page caches, the file cache of the kernel).
    for (const url of Object.values(urls)) execFileSync("wrk", ["-t1", `-c${CONNECTIONS}`, "-d1s", url], { stdio: "ignore" });
    for (let round = 0; round < ROUNDS; round++) {
      row.proxy.push(wrk(urls.proxy, workers));
      row.file.push(wrk(urls.file, workers));
      row.bare.push(wrk(urls.bare, workers));
    }
    const p = median(row.proxy.map((r) => r.rps));
    const f = median(row.file.map((r) => r.rps));
    console.log(
      `[bench:proxy] ${row.page}: proxy ${Math.round(p)} req/s, the same response from a file ${Math.round(f)} req/s: ${(p / f).toFixed(2)}`,
    );
  }
  return rows;
}

async function freshness(cluster: Cluster, cookie: string) {
  const results: number[] = [];
  const site = new URL(cluster.url);
  for (let n = 0; n < SAVES; n++) {
    const marker = `Opens ${Date.now().toString(36)}${n}`;
    // Requests through the proxy, back to back, from several connections: when each started, and what it saw.
    const seen: { started: number; fresh: boolean }[] = [];
    let polling = true;
    const pollers = Array.from({ length: POLLERS }, async () => {
      while (polling) {
        const started = performance.now();
        try {
          const text = await (await fetch(`${cluster.url}/`)).text();
          seen.push({ started, fresh: text.includes(marker) });
        } catch {
          seen.push({ started, fresh: false });
        }
      }
    });
    // A random moment within the second: the proxy's copies expire on whole seconds.
    await sleep(300 + Math.random() * 1000);
    const instance = cluster.instances[n % cluster.instances.length];
    const saved = await fetch(`${instance.url}/dashboard/hours/edit`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: cluster.url, "x-forwarded-host": site.host, cookie },
      body: new URLSearchParams({ start_time: marker, end_time: "5:00" }),
    });
    const savedAt = performance.now();
    if (saved.status !== 302) throw new Error(`the staff save answered ${saved.status}`);
    await sleep(2500);
    polling = false;
    await Promise.all(pollers);
    const after = seen.filter((s) => s.started >= savedAt);
    const lastStale = Math.max(savedAt, ...after.filter((s) => !s.fresh).map((s) => s.started));
    const seconds = (lastStale - savedAt) / 1000;
    results.push(seconds);
    console.log(
      `[bench:proxy] save ${n + 1}/${SAVES} through instance ${(n % cluster.instances.length) + 1}: every request shows it after ${seconds.toFixed(3)} s (${after.length} requests watched)`,
    );
  }
  return results;
}

async function main() {
  if (!nginxAvailable()) throw new Error("nginx is not installed: apt-get install -y nginx-light");
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error("wrk is not installed: apt-get install -y wrk");
  }
  console.log("[bench:proxy] building…");
  execSync("npx react-router build", { stdio: "ignore", env: { ...process.env, BUILD_DIR } });
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-static-"));
  const staticPort = await freePort();
  // The same nginx, a second server: the same bytes from files (written once the pages are known, then reloaded).
  const staticConf = path.join(staticDir, "static-server.conf");
  fs.writeFileSync(staticConf, `    server {\n        listen 127.0.0.1:${staticPort};\n        root ${staticDir};\n    }\n`);
  const extraServer = `    include ${staticConf};`;
  const cluster = await startCluster({
    env: { BUILD_DIR, LOG_LEVEL: "error" },
    extraServer,
    log: (m) => console.log(`[bench:proxy] ${m}`),
  });
  try {
    console.log(
      `[bench:proxy] proxy ${cluster.url}, instances ${cluster.instances.map((i) => i.url).join(", ")}; wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${ROUNDS} rounds`,
    );
    const rows = await throughput(cluster, `http://127.0.0.1:${staticPort}`, staticDir, staticConf, staticPort);
    const cookie = await signInCookie(cluster.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const fresh = await freshness(cluster, cookie);

    console.log("\nMedians of the rounds; CPU = nginx worker CPU time per request (steady even when other work shares the machine).\n");
    console.log(
      "| page | body / headers | proxy req/s (p50 / p99) | same response from a file req/s (p50 / p99) | ratio | CPU µs/req proxy / file | bare file req/s (ratio) | errors |",
    );
    console.log("|---|---|---|---|---|---|---|---|");
    const ratios: number[] = [];
    for (const row of rows) {
      const pick = (list: WrkResult[]) => {
        const m = median(list.map((r) => r.rps));
        return { rps: m, at: list.find((r) => r.rps === m)!, cpu: median(list.map((r) => r.cpuUsPerRequest)) };
      };
      const p = pick(row.proxy);
      const f = pick(row.file);
      const b = pick(row.bare);
      const errors = [...row.proxy, ...row.file, ...row.bare].reduce((n, r) => n + r.errors, 0);
      ratios.push(p.rps / f.rps);
      const n = (x: number) => Math.round(x).toLocaleString("en-CA");
      console.log(
        `| \`${row.page}\` | ${n(row.bytes)} B / ${n(row.headerBytes)} B | ${n(p.rps)} (${p.at.p50} / ${p.at.p99}) | ${n(f.rps)} (${f.at.p50} / ${f.at.p99}) | ${(p.rps / f.rps).toFixed(2)} | ${p.cpu.toFixed(0)} / ${f.cpu.toFixed(0)} | ${n(b.rps)} (${(p.rps / b.rps).toFixed(2)}) | ${errors} |`,
      );
    }
    const worstRatio = Math.min(...ratios);
    const worstFresh = Math.max(...fresh);
    console.log("");
    console.log(
      `Cached public pages through the proxy: ${worstRatio.toFixed(2)} of nginx serving the same response (body from a file, same headers) at worst (target ≥ 0.9): ${worstRatio >= 0.9 ? "met" : "NOT MET"}`,
    );
    console.log(
      `Freshness after a staff save: every request through the proxy shows it after at most ${worstFresh.toFixed(3)} s (median ${median(fresh).toFixed(3)} s, ${fresh.length} saves; target ≤ 1 s): ${worstFresh <= 1 ? "met" : "NOT MET"}`,
    );
    if (worstRatio < 0.9 || worstFresh > 1) process.exitCode = 1;
  } finally {
    await cluster.stop();
    fs.rmSync(staticDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    const cause = (error as { cause?: Error }).cause;
    console.error(`[bench:proxy] ${(error as Error).message}${cause ? ` (${cause.message})` : ""}`);
    process.exit(1);
  },
);

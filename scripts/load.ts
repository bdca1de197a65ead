/**
 * `npm run load`: drives the public pages and the dashboard of a production
 * server on loopback at 200 concurrent connections for 60 s, and prints
 * errors, throughput, p50/p99 latency and the server's memory over time
 * (flat after warm-up?). It prints figures; it is not a timed test.
 *
 * Options (env): LOAD_SECONDS (60), LOAD_CONNECTIONS (200), DATABASE_URL (to
 * run against PostgreSQL instead of the embedded database).
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import autocannon from "autocannon";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer } from "../tests/e2e/support";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 200);
const BUILD_DIR = "build-load";

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function main() {
  console.log("[load] building…");
  execSync("npx react-router build", { stdio: "ignore", env: { ...process.env, BUILD_DIR } });
  const env: Record<string, string> = { BUILD_DIR, LOG_LEVEL: "info" };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const server = await startServer({ env, quiet: true });
  try {
    console.log(`[load] server on ${server.url} (pid ${server.process.pid})`);
    const login = await fetch(`${server.url}/admin`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    if (!cookie) throw new Error(`sign-in failed (${login.status}); the dashboard part of the load needs the staff account`);
    const dashboard = await fetch(`${server.url}/dashboard`, { headers: { cookie }, redirect: "manual" });
    if (dashboard.status !== 200) throw new Error(`/dashboard answered ${dashboard.status} with the session`);

    const insights = await (await fetch(`${server.url}/insights`)).text();
    const post = /href="(\/post\/[^"]+)"/.exec(insights)?.[1] ?? "/insights";
    const team = await (await fetch(`${server.url}/team`)).text();
    const lawyer = /href="(\/lawyer\/[^"/]+)"/.exec(team)?.[1] ?? "/team";
    const publicPaths = [
      "/",
      "/team",
      lawyer,
      "/insights",
      "/insights?category=cyber&page=2",
      post,
      "/cyber?tab=team",
      "/insurance",
      "/sitemap.xml",
    ];
    const staffPaths = ["/dashboard", "/dashboard/lawyers", "/dashboard/articles", "/dashboard/hours/edit"];
    const requests = [
      ...publicPaths.map((path) => ({ method: "GET" as const, path })),
      ...staffPaths.map((path) => ({ method: "GET" as const, path, headers: { cookie } })),
    ];

    const samples: { t: number; rss: number }[] = [];
    const started = Date.now();
    const timer = setInterval(() => samples.push({ t: (Date.now() - started) / 1000, rss: rssMiB(server.process.pid!) }), 1000);
    console.log(`[load] ${CONNECTIONS} connections for ${SECONDS} s over ${requests.length} paths (${staffPaths.length} signed in)…`);
    const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, requests });
    clearInterval(timer);

    const warm = samples.filter((s) => s.t >= Math.min(30, SECONDS / 2)); // caches, JIT and pools settle in the first half
    const first = warm[0]?.rss ?? 0;
    const last = warm.at(-1)?.rss ?? 0;
    const peak = Math.max(...samples.map((s) => s.rss));
    const growth = first ? Math.round(((last - first) / first) * 1000) / 10 : 0;
    console.log("");
    console.log(`requests: ${result.requests.total} (${Math.round(result.requests.average)}/s)`);
    console.log(`errors: ${result.errors}, timeouts: ${result.timeouts}, non-2xx: ${result.non2xx}`);
    console.log(`latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(`memory (RSS): after warm-up ${first} MiB, end ${last} MiB, peak ${peak} MiB, change after warm-up ${growth}%`);
    console.log(
      `memory samples (s:MiB): ${samples
        .filter((_, i) => i % 5 === 0)
        .map((s) => `${Math.round(s.t)}:${s.rss}`)
        .join(" ")}`,
    );
    const ok = result.errors === 0 && result.timeouts === 0 && result.non2xx === 0;
    console.log(ok ? "\nZero errors." : "\nErrors during the run.");
    if (!ok) process.exitCode = 1;
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

await main();

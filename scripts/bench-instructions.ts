/**
 * `npm run bench:instructions`: what a page-cache hit costs in instructions,
 * beside the bare node:http server answering the same bytes (the "ceiling",
 * scripts/bench-ceiling.js). Counted by `valgrind --tool=callgrind`, which is
 * deterministic: on a shared virtual machine the timings of `npm run bench`
 * move by ±30 % from process to process, an instruction count does not.
 *
 * Each server runs under callgrind with instrumentation off; WARM_UP requests
 * (keep-alive, 4 connections, sent by this process) let V8 optimise the hit
 * path; then instrumentation is switched on, SETTLE requests are sent and the
 * counters dumped (and dropped), then MEASURED requests and a second dump:
 * that dump, of the server's main thread, divided by MEASURED is the cost of
 * one hit in user-space instructions (the kernel's share, the same bytes sent
 * on both sides, is not counted; compiler and GC helper threads are listed
 * apart). Prints both and their ratio; the profiles stay in bench-results/ for
 * `callgrind_annotate`.
 *
 * Options (env): BENCH_PATH (default /cyber: a page with a long life, so no
 * background render falls in the window), BUILD_DIR (default build),
 * WARM_UP (10000), SETTLE (1000), MEASURED (4000), INSTRUCTIONS_NODE_ARGS (extra node
 * options, e.g. --perf-basic-prof to name JIT code: /tmp/perf-<pid>.map),
 * INSTRUCTIONS_VALGRIND_ARGS (extra callgrind options, e.g. --cache-sim=yes to
 * count simulated cache misses as well), OTHER_FIRST (default 3000, 0 for
 * none: requests the page cache does not answer — /healthz, a static file,
 * the sign-in page — sent to the app before its warm-up, as a site's other
 * traffic would, so that the count includes what that traffic costs the hits
 * and V8's compiler threads are done before it),
 * STAFF_FIRST (default 1, 0 for none: a staff member signs in and opens the
 * dashboard before the warm-up, as staff do every working day, so that the
 * hits are counted in the state the server has after staff have used it).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { PRODUCTION_NODE_ARGS } from "../server/node-args.js";
import { freePort, productionEnv, staffVisit } from "../tests/e2e/support";

const PAGE = process.env.BENCH_PATH ?? "/cyber";
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const WARM_UP = Number(process.env.WARM_UP ?? 10_000);
const SETTLE = Number(process.env.SETTLE ?? 1000);
const MEASURED = Number(process.env.MEASURED ?? 4000);
const OTHER_FIRST = Number(process.env.OTHER_FIRST ?? 3000);
const STAFF_FIRST = process.env.STAFF_FIRST !== "0";
const OUT = path.resolve("bench-results");

/** Sends `count` GET requests over 4 keep-alive connections; fails on any status but 200. */
async function send(url: string, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let sent = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (sent < count) {
        sent++;
        await new Promise<void>((resolve, reject) => {
          http
            .get(url, { agent }, (res) => {
              res.resume();
              res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: status ${res.statusCode}`))));
            })
            .on("error", reject);
        });
      }
    }),
  );
  agent.destroy();
}

async function waitFor(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within 5 minutes under valgrind:\n${log()}`);
}

/**
 * Main-thread and other threads' instruction totals of one callgrind dump (files <out>.<dump>-<thread>),
 * and the main thread's other events when there are (with --cache-sim=yes: cache misses by level).
 */
function dumpTotals(outFile: string, dump: number): { main: number; others: number; mainEvents: Record<string, number> } {
  const dir = path.dirname(outFile);
  const prefix = `${path.basename(outFile)}.${dump}-`;
  let main = 0;
  let others = 0;
  let mainEvents: Record<string, number> = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.startsWith(prefix))) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const names = /^events: (.+)$/m.exec(text)?.[1]?.split(" ") ?? ["Ir"];
    const values = (/^totals: (.+)$/m.exec(text)?.[1] ?? "0").split(" ").map(Number);
    if (file.endsWith("-01")) {
      main += values[0] ?? 0;
      mainEvents = Object.fromEntries(names.map((name, i) => [name, values[i] ?? 0]));
    } else others += values[0] ?? 0;
  }
  return { main, others, mainEvents };
}

async function measure(name: string, args: string[], env: Record<string, string>, port: number) {
  const outFile = path.join(OUT, `callgrind-${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.out`);
  // INSTRUCTIONS_NODE_ARGS="--perf-basic-prof": V8 writes /tmp/perf-<pid>.map, which names the JIT code addresses of the profile.
  const nodeArgs = (process.env.INSTRUCTIONS_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // INSTRUCTIONS_VALGRIND_ARGS="--cache-sim=yes": callgrind also simulates the caches and counts misses (first level, last level).
  const valgrindArgs = (process.env.INSTRUCTIONS_VALGRIND_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      "--separate-threads=yes",
      ...valgrindArgs,
      `--callgrind-out-file=${outFile}`,
      process.execPath,
      ...nodeArgs,
      ...args,
    ],
    {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let err = "";
  child.stderr.on("data", (d) => (err = (err + d).slice(-4000)));
  // callgrind_control finds the process by a pipe named after HOST and USER as the process saw them.
  const control = (...flags: string[]) =>
    execFileSync("callgrind_control", [...flags, String(child.pid)], { env: { ...process.env, ...env }, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}${PAGE}`;
  try {
    console.log(`[instructions] ${name}: starting under valgrind…`);
    await waitFor(url, child, () => err);
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    if (OTHER_FIRST && name === "app") {
      const signIn = await (await fetch(`http://127.0.0.1:${port}/admin`)).text();
      const asset = /\/assets\/[^"]+\.(?:js|css)/.exec(signIn)?.[0];
      if (!asset) throw new Error("no /assets/ file linked from the sign-in page");
      console.log(`[instructions] ${name}: ${OTHER_FIRST} requests that are not page-cache hits (/healthz, ${asset}, /admin)…`);
      for (const p of ["/healthz", asset, "/admin"]) await send(`http://127.0.0.1:${port}${p}`, Math.ceil(OTHER_FIRST / 3));
    }
    if (STAFF_FIRST && name === "app") {
      console.log(`[instructions] ${name}: a staff member signs in and opens the dashboard…`);
      await staffVisit(`http://127.0.0.1:${port}`);
    }
    console.log(`[instructions] ${name}: ${WARM_UP} requests to warm up…`);
    await send(url, WARM_UP);
    control("-i", "on");
    await send(url, SETTLE);
    control("-d");
    await send(url, MEASURED);
    control("-d");
    control("-i", "off");
    await new Promise((r) => setTimeout(r, 1000));
    const totals = dumpTotals(outFile, 2);
    if (!totals.main) throw new Error(`${name}: no callgrind dump found for ${outFile}`);
    const perHit = Object.fromEntries(Object.entries(totals.mainEvents).map(([name, n]) => [name, n / MEASURED]));
    return {
      main: totals.main / MEASURED,
      others: totals.others / MEASURED,
      events: perHit,
      profile: `${outFile}.2-01`,
      body,
      pid: child.pid,
    };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

async function main() {
  try {
    execFileSync("valgrind", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("valgrind is not installed: apt-get install valgrind (Debian's package), then run this again.");
  }
  if (!fs.existsSync(`${BUILD_DIR}/server/index.js`)) throw new Error(`Run \`npm run build\` first (no ${BUILD_DIR}/server/index.js).`);
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-instructions-"));
  try {
    const appPort = await freePort();
    const app = await measure(
      "app",
      [...PRODUCTION_NODE_ARGS, "server.js"],
      { ...productionEnv(appPort, dataDir), BUILD_DIR, LOG_LEVEL: "info" },
      appPort,
    );
    // The ceiling answers the same bytes the app sent (identity, as these requests ask).
    const body = app.body;
    const bodies = path.join(dataDir, "bodies.json");
    const ceilingPort = await freePort();
    fs.writeFileSync(bodies, JSON.stringify({ [PAGE]: body.toString("base64") }));
    const ceiling = await measure("ceiling", ["scripts/bench-ceiling.js", bodies, String(ceilingPort)], { HOST: "127.0.0.1" }, ceilingPort);
    const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
    console.log(
      `\nInstructions a cache hit of ${PAGE} (${body.length} bytes), user space, main thread (other threads apart), over ${MEASURED} requests after ${WARM_UP + SETTLE}:`,
    );
    console.log(`  app      ${k(app.main)}  (other threads ${k(app.others)})`);
    console.log(`  ceiling  ${k(ceiling.main)}  (other threads ${k(ceiling.others)})`);
    console.log(
      `  ratio    ${(ceiling.main / app.main).toFixed(2)} of the ceiling (main thread; the kernel's share, the same on both sides, is not in it)`,
    );
    const misses = Object.keys(app.events).filter((name) => name !== "Ir");
    if (misses.length) {
      console.log(`Simulated cache events a hit, main thread (${misses.join(" ")}):`);
      console.log(`  app      ${misses.map((name) => app.events[name].toFixed(0)).join(" ")}`);
      console.log(`  ceiling  ${misses.map((name) => (ceiling.events[name] ?? 0).toFixed(0)).join(" ")}`);
    }
    console.log(
      `Profiles: ${app.profile}, ${ceiling.profile} (callgrind_annotate --inclusive=no <file>); processes ${app.pid}, ${ceiling.pid}`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

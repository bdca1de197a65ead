/**
 * `npm run bench:profile`: where a page-cache hit spends its time, beside the
 * bare node:http server answering the same bytes (the "ceiling",
 * scripts/bench-ceiling.js).
 *
 * Starts the built production server (demo content, request log on, written
 * to a file) under `node --cpu-prof`, loads one cached page with wrk
 * (-t1 -c50, PROFILE_SECONDS, default 10), stops it; then does the same for
 * the ceiling with the page's bytes. For each it prints the CPU time per
 * request read from /proc (user and system, main thread and the others: the
 * profile sees only the main thread's JavaScript and the native calls it
 * makes), the functions with the most self time and the inclusive time of the
 * hit path's own steps, over the load window only. The profiles stay in
 * bench-results/ for Chrome DevTools.
 *
 * Options (env): PROFILE_PATH (default /), PROFILE_SECONDS, BUILD_DIR (default
 * build), PROFILE_CEILING=0 to skip the ceiling, PROFILE_STAFF=1 to render the
 * sign-in page and ask for the dashboard before the load (the server then runs
 * in the state it has after staff have used it).
 */
import { execFileSync, fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer } from "../tests/e2e/support";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

const PAGE = process.env.PROFILE_PATH ?? "/";
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const BUILD_DIR = process.env.BUILD_DIR ?? "build";

/** CPU time (ms, user and system) of a process's main thread and of its other threads, from /proc (Linux). */
function threadCpu(pid: number) {
  const cpu = { mainUser: 0, mainSystem: 0, otherUser: 0, otherSystem: 0 };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended
    }
    const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
    const user = Number(fields[11]) * 10; // clock ticks of 1/100 s
    const system = Number(fields[12]) * 10;
    if (tid === String(pid)) {
      cpu.mainUser += user;
      cpu.mainSystem += system;
    } else {
      cpu.otherUser += user;
      cpu.otherSystem += system;
    }
  }
  return cpu;
}

/** wrk on `url` for SECONDS; the CPU µs per request the process `pid` spent meanwhile. */
function load(url: string, pid: number) {
  const before = threadCpu(pid);
  const out = execFileSync("wrk", ["-t1", "-c50", `-d${SECONDS}s`, url], { encoding: "utf8" });
  const after = threadCpu(pid);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const us = (key: keyof typeof before) => Math.round(((after[key] - before[key]) * 1000 * 10) / Math.max(1, requests)) / 10;
  console.log(out.trim());
  const cpu = { mainUser: us("mainUser"), mainSystem: us("mainSystem"), otherUser: us("otherUser"), otherSystem: us("otherSystem") };
  console.log(
    `CPU µs a request: main thread ${cpu.mainUser} user + ${cpu.mainSystem} system, other threads ${cpu.otherUser} + ${cpu.otherSystem} ` +
      `(total ${Math.round((cpu.mainUser + cpu.mainSystem + cpu.otherUser + cpu.otherSystem) * 10) / 10}; profiler on)\n`,
  );
}

function keep(profileDir: string, name: string): Profile {
  const file = fs.readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("no .cpuprofile written");
  fs.mkdirSync("bench-results", { recursive: true });
  const kept = path.join("bench-results", `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`);
  fs.copyFileSync(path.join(profileDir, file), kept);
  console.log(`Profile: ${kept} (open in Chrome DevTools, Performance)`);
  return JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")) as Profile;
}

function report(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: Node) =>
    `${n.callFrame.functionName || "(anonymous)"} ${path.basename(n.callFrame.url || "")}:${n.callFrame.lineNumber + 1}`;
  const stacks = new Map<number, string[]>();
  const stack = (id: number) => {
    let names = stacks.get(id);
    if (!names) {
      names = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) names.push(label(byId.get(at)!));
      stacks.set(id, names);
    }
    return names;
  };

  // Only the load window: from the first to the last sample inside the HTTP parser (start-up and shutdown left out).
  let t = profile.startTime;
  const times = profile.samples.map((_, i) => (t += profile.timeDeltas[i]));
  const serving = profile.samples.map((id) => stack(id).some((name) => name.startsWith("parserOnHeadersComplete ")));
  const first = serving.indexOf(true);
  const last = serving.lastIndexOf(true);
  const windowIds = profile.samples.slice(first, last + 1);
  const total = windowIds.length;
  console.log(`Samples in the load window: ${total} over ${((times[last] - times[first]) / 1e6).toFixed(1)} s\n`);

  // Self time per function, and inclusive time (each function counted once per sample).
  const self = new Map<string, number>();
  const inclusiveOf = new Map<string, number>();
  for (const id of windowIds) {
    const names = stack(id);
    self.set(names[0], (self.get(names[0]) ?? 0) + 1);
    for (const name of new Set(names)) inclusiveOf.set(name, (inclusiveOf.get(name) ?? 0) + 1);
  }
  console.log("Self time (top 30):");
  for (const [name, hits] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`  ${((hits / total) * 100).toFixed(2).padStart(6)} %  ${name}`);
  }
  console.log("\nInclusive time (top 40):");
  for (const [name, hits] of [...inclusiveOf.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`  ${((hits / total) * 100).toFixed(2).padStart(6)} %  ${name}`);
  }
}

if (!fs.existsSync(`${BUILD_DIR}/server/index.js`)) throw new Error(`No build in ${BUILD_DIR}/: run \`npm run build\` first.`);
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "hit-profile-"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hit-data-"));
const server = await startServer({
  dataDir,
  env: { BUILD_DIR, LOG_LEVEL: "info" },
  logFile: path.join(profileDir, "requests.log"),
  nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
});
const base = `http://127.0.0.1:${server.port}`;
if (process.env.PROFILE_STAFF === "1") {
  await fetch(`${base}/admin`);
  await fetch(`${base}/dashboard`, { redirect: "manual" });
}
const res = await fetch(base + PAGE); // rendered once, then cached
const body = Buffer.from(await res.arrayBuffer());
if (res.status !== 200) throw new Error(`${PAGE} answered ${res.status}`);
console.log(`== The app: ${PAGE} from the page cache (${body.length} bytes)\n`);
load(base + PAGE, server.process.pid!);
await server.stop();
report(keep(profileDir, "hit"));
fs.rmSync(profileDir, { recursive: true, force: true });
fs.rmSync(dataDir, { recursive: true, force: true });

if (process.env.PROFILE_CEILING !== "0") {
  const ceilingDir = fs.mkdtempSync(path.join(os.tmpdir(), "ceiling-profile-"));
  const bodies = path.join(ceilingDir, "bodies.json");
  fs.writeFileSync(bodies, JSON.stringify({ [PAGE]: body.toString("base64") }));
  const child = fork(path.resolve("scripts/bench-ceiling.js"), [bodies], {
    execArgv: ["--cpu-prof", `--cpu-prof-dir=${ceilingDir}`],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve) => child.once("message", (p) => resolve(p as number)));
  console.log(`\n== The ceiling: bare node:http answering the same ${body.length} bytes\n`);
  load(`http://127.0.0.1:${port}${PAGE}`, child.pid!);
  await new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGINT");
  });
  report(keep(ceilingDir, "ceiling"));
  fs.rmSync(ceilingDir, { recursive: true, force: true });
}

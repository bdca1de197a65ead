/**
 * `npm run bench:profile`: where a page-cache hit spends its time.
 *
 * Starts the built production server (demo content, request log on, written
 * to a file) under `node --cpu-prof`, loads one cached page with wrk
 * (-t1 -c50, PROFILE_SECONDS, default 10), stops the server and prints the
 * functions with the most self time and the inclusive time of the hit path's
 * own steps. The profile stays in bench-results/ for Chrome DevTools.
 *
 * Options (env): PROFILE_PATH (default /), PROFILE_SECONDS, BUILD_DIR (default build).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer } from "../tests/e2e/support";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

const PAGE = process.env.PROFILE_PATH ?? "/";
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const BUILD_DIR = process.env.BUILD_DIR ?? "build";

if (!fs.existsSync(`${BUILD_DIR}/server/index.js`)) throw new Error(`No build in ${BUILD_DIR}/: run \`npm run build\` first.`);
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "hit-profile-"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hit-data-"));
const server = await startServer({
  dataDir,
  env: { BUILD_DIR, LOG_LEVEL: "info" },
  logFile: path.join(profileDir, "requests.log"),
  nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
});
const url = `http://127.0.0.1:${server.port}${PAGE}`;
await fetch(url); // rendered once, then cached
console.log(execFileSync("wrk", ["-t1", "-c50", `-d${SECONDS}s`, url], { encoding: "utf8" }));
await server.stop();
const file = fs.readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error("no .cpuprofile written");
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")) as Profile;
fs.mkdirSync("bench-results", { recursive: true });
const kept = path.join("bench-results", `hit-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`);
fs.copyFileSync(path.join(profileDir, file), kept);
fs.rmSync(profileDir, { recursive: true, force: true });
fs.rmSync(dataDir, { recursive: true, force: true });

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${path.basename(n.callFrame.url || "")}:${n.callFrame.lineNumber + 1}`;
const stack = (id: number) => {
  const names: string[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) names.push(label(byId.get(at)!));
  return names;
};

// Only the load window: from the first to the last sample inside the HTTP parser (start-up and shutdown left out).
let t = profile.startTime;
const times = profile.samples.map((_, i) => (t += profile.timeDeltas[i]!));
const serving = profile.samples.map((id) => stack(id).some((name) => name.startsWith("parserOnHeadersComplete ")));
const first = serving.indexOf(true);
const last = serving.lastIndexOf(true);
const windowIds = profile.samples.slice(first, last + 1);
const total = windowIds.length;
console.log(`Samples in the load window: ${total} over ${((times[last]! - times[first]!) / 1e6).toFixed(1)} s\n`);

// Self time per function, and inclusive time (each function counted once per sample).
const self = new Map<string, number>();
const inclusiveOf = new Map<string, number>();
for (const id of windowIds) {
  const names = stack(id);
  self.set(names[0]!, (self.get(names[0]!) ?? 0) + 1);
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
console.log(`\nProfile: ${kept} (open in Chrome DevTools, Performance)`);

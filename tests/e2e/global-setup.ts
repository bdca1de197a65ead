import fs from "node:fs";
import type { TestProject } from "vitest/node";
import { PARALLEL_WORKERS, PROJECTS } from "../../vitest.e2e.config";
import { startHtmlChecker } from "./a11y-checkers";
import { freePort, startServer, STARTED_DATA_DIR, type RunningServer } from "./support";

const servers: RunningServer[] = [];
let htmlChecker: Awaited<ReturnType<typeof startHtmlChecker>> | undefined;
let startedDataDir: string | undefined;
const NO_SHARED_SERVER = "http://no-shared-server.invalid";

/**
 * The production servers with demo content shared by the browser tests: one per worker of the files
 * that run two at a time (E2E_BASE_URL_1, E2E_BASE_URL_2; E2E_BASE_URL is the first), so two files
 * running at once never share one. sharedServerUrl() (support.ts) gives a file its worker's.
 *
 * Only what the projects in the run use is started (CI runs the groups as separate runs, decision 0028): the
 * first group's files run two at a time and check HTML (the Nu HTML Checker's service); the files that measure
 * time run one at a time on one shared server; the waiting and cluster files start their own servers. Their
 * fixtures still ask for `base` (staffPage's default origin, unused there), so with no shared server it is an
 * address that never resolves (NO_SHARED_SERVER): a test that visited it would fail naming it.
 */
export async function setup(project: TestProject) {
  if (!fs.existsSync(`${process.env.BUILD_DIR ?? "build"}/server/index.js`))
    throw new Error("Run `npm run build` before the browser tests.");
  const running = new Set(project.vitest.projects.map((p) => p.name));
  const sharedServers = running.has(PROJECTS.first) ? PARALLEL_WORKERS : running.has(PROJECTS.serial) ? 1 : 0;
  // Beside it, the Nu HTML Checker's web service for the whole run (VNU_URL, validateHtml): one Java start, not one a check.
  const checker = running.has(PROJECTS.first) ? freePort().then((port) => startHtmlChecker(port)) : undefined;
  checker?.then((started) => (htmlChecker = started)).catch(() => {});
  // One first start (migrations, demo content, staff account), stopped; every server with the test settings
  // then starts on a copy of its data folder (startServer, E2E_STARTED_DATA_DIR) instead of seeding again.
  const first = await startServer({ firstStart: true, quiet: true });
  startedDataDir = first.dataDir;
  if ((await first.stop("SIGTERM")) !== 0) throw new Error(`the first server start did not stop cleanly:\n${first.output()}`);
  process.env[STARTED_DATA_DIR] = startedDataDir;
  servers.push(...(await Promise.all(Array.from({ length: sharedServers }, () => startServer()))));
  if (checker) process.env.VNU_URL = (await checker).url;
  servers.forEach((server, i) => (process.env[`E2E_BASE_URL_${i + 1}`] = server.url));
  process.env.E2E_BASE_URL = servers[0]?.url ?? NO_SHARED_SERVER;
}

/** SIGTERM, and SIGKILL if the server has not exited 20 s later: no server outlives the run to load the next one. */
async function stopOrKill(server: RunningServer) {
  const kill = setTimeout(() => server.process.kill("SIGKILL"), 20_000);
  await server.stop();
  clearTimeout(kill);
}

export async function teardown() {
  // Each stopped on its own, so one that fails to stop leaves the others stopped.
  await Promise.allSettled([htmlChecker?.stop(), ...servers.map(stopOrKill)]);
  for (const server of servers) fs.rmSync(server.dataDir, { recursive: true, force: true });
  if (startedDataDir) fs.rmSync(startedDataDir, { recursive: true, force: true });
}

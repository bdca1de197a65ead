/**
 * `npm run audit`: Lighthouse (mobile, default throttling) with Debian's
 * Chromium on home, team, a lawyer, insights, a post and a practice page of
 * the built production server. Fails when a page's median is below 100 in
 * any category (Performance, Accessibility, Best Practices, SEO), or when a
 * single run's Performance is below 98 (with AUDIT_GATE=floor, as CI runs it,
 * only the floor and the other three categories fail it). Writes bench-results/lighthouse-*.json.
 *
 * Each page is audited AUDIT_RUNS times (3) and the median score counts:
 * Performance moves a point or two between runs on the same code. Each run
 * prints its metrics (LCP and TBT among them) and the LCP element, so a low
 * score says why.
 *
 * Options (env): CHROMIUM_PATH (/usr/bin/chromium), AUDIT_RUNS (3), AUDIT_PAGES (a comma list: only those of the six).
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, startServer } from "../tests/e2e/support";

const BUILD_DIR = "build-audit";
const RUNS = Number(process.env.AUDIT_RUNS ?? 3);
/** Runs Lighthouse could not complete (no scores) that are run again before giving up. */
const MAX_RUN_ERRORS = 2;
const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];

/** The median score: Lighthouse's own advice for a score that moves between runs. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}
const TARGETS = { performance: 100, accessibility: 100, "best-practices": 100, seo: 100 } as const;
/** No single run's Performance below this (the median is held to TARGETS). */
const PERFORMANCE_FLOOR = 98;

/** The largest contentful paint's element, as Lighthouse names it (its selector or snippet). */
function lcpElement(lhr: { audits: Record<string, { details?: unknown }> }): string {
  const details = lhr.audits["largest-contentful-paint-element"]?.details as
    { items?: { items?: { node?: { selector?: string; snippet?: string } }[] }[] } | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  return node?.snippet?.slice(0, 80) ?? node?.selector ?? "?";
}

async function main() {
  console.log("[audit] building…");
  execSync("npx react-router build", { stdio: "ignore", env: { ...process.env, BUILD_DIR } });
  const server = await startServer({ env: { BUILD_DIR, LOG_LEVEL: "error" }, quiet: true });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  const failures: string[] = [];
  const hardFailures: string[] = [];
  const report: Record<string, Record<string, number>> = {};
  try {
    const insights = await (await fetch(`${server.url}/insights`)).text();
    const post = /href="(\/post\/[^"]+)"/.exec(insights)?.[1];
    const team = await (await fetch(`${server.url}/team`)).text();
    const lawyer = /href="(\/lawyer\/[^"/]+)"/.exec(team)?.[1];
    if (!post || !lawyer) throw new Error("could not find a post and a lawyer to audit");
    const allPages = ["/", "/team", lawyer, "/insights", post, "/cyber"];
    // AUDIT_PAGES="/,/cyber" audits only those (while looking into one page's score).
    const only = process.env.AUDIT_PAGES?.split(",").filter(Boolean);
    const pages = only?.length ? allPages.filter((page) => only.includes(page)) : allPages;
    // Every page measured the same way: as visitors get it, from the page cache.
    // Pictures too: an AVIF width is made on its first request, once (app/.server/pictures/images.ts).
    for (const path of pages) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      for (const picture of new Set(html.match(/\/images\/[a-z]+\/[a-z0-9-]+\.avif/g) ?? [])) await fetch(`${server.url}${picture}`);
    }
    for (const path of pages) {
      const runs: Record<string, number>[] = [];
      let errors = 0;
      while (runs.length < RUNS) {
        const result = await lighthouse(`${server.url}${path}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: Object.keys(TARGETS),
          // The machine has no internet: requests to other hosts (the map frame) are blocked, not waited for.
          blockedUrlPatterns: ["*google.com*"],
        });
        const lhr = result!.lhr;
        // A run Lighthouse itself could not complete (a protocol timeout, say) has no scores: run again.
        if (lhr.runtimeError) {
          console.log(
            `  ${path}: Lighthouse could not complete a run (${lhr.runtimeError.code}: ${lhr.runtimeError.message}); running again`,
          );
          if (++errors > MAX_RUN_ERRORS) throw new Error(`Lighthouse failed ${errors} times on ${path}: ${lhr.runtimeError.message}`);
          continue;
        }
        const scores = Object.fromEntries(Object.keys(TARGETS).map((key) => [key, Math.round((lhr.categories[key]?.score ?? 0) * 100)]));
        runs.push(scores);
        const metric = (id: string) => lhr.audits[id];
        console.log(
          `  ${path} run ${runs.length}: performance ${scores.performance}; ` +
            METRICS.map(
              (id) => `${id.replace(/-/g, " ")} ${metric(id)?.displayValue ?? "?"} (${Math.round((metric(id)?.score ?? 0) * 100)})`,
            ).join(", ") +
            `; LCP element: ${lcpElement(lhr)}` +
            // Lighthouse's measure of this machine's CPU (higher is faster): its simulated phone is 4× slower than the machine it runs on, so the same page scores lower on a slower machine.
            `; machine's benchmark index ${lhr.environment?.benchmarkIndex === undefined ? "?" : Math.round(lhr.environment.benchmarkIndex)}`,
        );
        // What blocked the main thread (Lighthouse's long tasks, as simulated on a slow phone), so a TBT above 0 says where.
        const longTasks =
          (metric("long-tasks")?.details as { items?: { url?: string; startTime?: number; duration?: number }[] } | undefined)?.items ?? [];
        if (longTasks.length)
          console.log(
            `  ${path}: long tasks: ${longTasks.map((t) => `${(t.url ?? "?").replace(server.url, "")} at ${Math.round(t.startTime ?? 0)} ms for ${Math.round(t.duration ?? 0)} ms`).join("; ")}`,
          );
        // Where the main thread's time went (Lighthouse's groups: style & layout, parsing, script…), simulated on a slow phone.
        const work =
          (metric("mainthread-work-breakdown")?.details as { items?: { groupLabel?: string; duration?: number }[] } | undefined)?.items ??
          [];
        if (work.length)
          console.log(
            `  ${path}: main thread: ${work
              .filter((w) => (w.duration ?? 0) >= 1)
              .map((w) => `${w.groupLabel ?? "?"} ${Math.round(w.duration ?? 0)} ms`)
              .join(", ")}`,
          );
        const failed = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary");
        if (failed.length) console.log(`  ${path}: failing audits: ${failed.map((a) => a.id).join(", ")}`);
        if (scores.performance < PERFORMANCE_FLOOR) {
          failures.push(`${path}: performance ${scores.performance} in run ${runs.length} (floor ${PERFORMANCE_FLOOR})`);
          hardFailures.push(`${path}: performance ${scores.performance} in run ${runs.length}`);
        }
      }
      const scores = Object.fromEntries(Object.keys(TARGETS).map((key) => [key, median(runs.map((r) => r[key]))]));
      report[path] = { ...scores, runs: runs.length };
      console.log(
        `${path.padEnd(48)} ${Object.entries(scores)
          .map(([k, v]) => `${k} ${v}`)
          .join("  ")}`,
      );
      for (const [key, target] of Object.entries(TARGETS)) {
        if (scores[key] < target) {
          failures.push(`${path}: ${key} ${scores[key]} (target ${target})`);
          if (key !== "performance") hardFailures.push(`${path}: ${key} ${scores[key]}`);
        }
      }
    }
  } finally {
    chrome.kill();
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  fs.mkdirSync("bench-results", { recursive: true });
  fs.writeFileSync(
    `bench-results/lighthouse-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
    JSON.stringify({ date: new Date().toISOString(), report, failures }, null, 2),
  );
  if (failures.length) {
    console.log(`\nBelow target:\n- ${failures.join("\n- ")}`);
    // AUDIT_GATE=floor (CI on a shared machine): fail only below the floor (98 in any run) or an
    // accessibility, best-practices or SEO median below 100; a Performance median of 99 is reported.
    if (process.env.AUDIT_GATE !== "floor" || hardFailures.length) process.exitCode = 1;
    else console.log("(AUDIT_GATE=floor: only a Performance median below 100, which a busy machine moves; not failing)");
  } else {
    console.log("\nAll pages meet the Lighthouse targets.");
  }
}

await main();

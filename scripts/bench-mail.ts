/**
 * `npm run bench:mail`: one article sent to 10,000 confirmed subscribers
 * (issue 31, decision 0024). Targets: all of it delivered within 60 s; the
 * server's resident memory grows by at most 150 MB while it sends; cached
 * public pages keep at least 0.8 of their throughput meanwhile.
 *
 * 1. Builds the app (BENCH_BUILD=0 reuses the build).
 * 2. Creates a throwaway PostgreSQL database next to TEST_DATABASE_URL's
 *    (default postgres://postgres@127.0.0.1:5432/postgres; dropped at the
 *    end) and starts one production instance on it, its SMTP_URL a local
 *    `smtp-server` sink that counts what it accepts (tests/support/smtp-sink.ts).
 * 3. Measures the cached home page alone with `wrk` (50 connections), and the
 *    server's RSS (/proc).
 * 4. Adds 10,000 confirmed subscribers (BENCH_MAIL_SUBSCRIBERS) and a
 *    published article set to be sent to them, and from then on loads the
 *    same page in 5-second runs and samples the RSS every 200 ms until the
 *    sink has every message (or 120 s pass); then the page alone once more.
 *    That run's ratio (the pages while it sends against the mean of the runs
 *    alone before and after) is reported;
 * 5. the ratio again in BENCH_MAIL_PAIRS (21) pairs of 3-second runs, alone
 *    and while a smaller mailing sends (BENCH_MAIL_PAIR_SUBSCRIBERS, 1,000
 *    other subscribers, a new article each pair; the run starts once its
 *    first message has arrived and must end before its last), the order
 *    alternating. Their median is held to the target: this machine kind runs
 *    in fast and slow streaks that move one run alone a minute away by more
 *    than the mailing does (docs/performance.md), as in `npm run bench:stats`.
 * Prints the figures with "met"/"not met" and exits 1 when a target is
 * missed. The server sends at SUBSCRIBER_MAIL_RATE (its default unless
 * BENCH_MAIL_RATE is set). BENCH_MAIL_PAGES=0 leaves out the page load while
 * it sends (the mailing's own time and memory); BENCH_NODE_ARGS passes flags
 * to the server's node (after the production ones; a later flag wins).
 */
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ADMIN_DATABASE_URL, adminQuery } from "../tests/support/cluster";
import { mailingReady } from "../tests/support/mailing";
import { startSmtpSink, type SinkMessage } from "../tests/support/smtp-sink";
import { startServer } from "../tests/e2e/support";
import { cpuMs, loadAverageText, rssMb } from "./proc";
import { alternatingPairs, errorsOf, median, rpsOf, wrk } from "./wrk";

const SUBSCRIBERS = Number(process.env.BENCH_MAIL_SUBSCRIBERS ?? 10_000);
const TARGETS = { seconds: 60, rssGrowthMb: 150, pageRatio: 0.8 };
const PAGE_SECONDS = 5;
const PAIRS = Number(process.env.BENCH_MAIL_PAIRS ?? 21);
const PAIR_SECONDS = 3;
const PAIR_SUBSCRIBERS = Number(process.env.BENCH_MAIL_PAIR_SUBSCRIBERS ?? 1000);
/** BENCH_MAIL_PAGES=0: no page load while it sends (to tell the mailing's own memory and time from the pages'). */
const WITH_PAGES = process.env.BENCH_MAIL_PAGES !== "0";
const say = (message: string) => console.log(`[bench:mail] ${message}`);

async function main() {
  if (process.env.BENCH_BUILD !== "0") {
    say("building…");
    execSync("npx react-router build", { stdio: "ignore" });
  }
  const name = `firm_bench_mail_${randomBytes(4).toString("hex")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const record: SinkMessage[] = [];
  const sink = await startSmtpSink({ name: "sink", record });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const failures: string[] = [];
  try {
    server = await startServer({
      quiet: true,
      nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
      env: {
        DATABASE_URL: databaseUrl,
        SMTP_URL: sink.url,
        LOG_LEVEL: "error",
        ...(process.env.BENCH_MAIL_RATE ? { SUBSCRIBER_MAIL_RATE: process.env.BENCH_MAIL_RATE } : {}),
      },
    });
    const pid = server.process.pid!;
    const page = `${server.url}/`;
    const pageLoad = (seconds: number) =>
      wrk(["-t1", "-c50", `-d${seconds}s`, "-H", "Accept-Encoding: gzip, deflate, br", "-s", path.resolve("scripts/wrk-p95.lua"), page]);
    /** Waits until the sink holds `count` messages; false after `ms`. */
    const received = async (count: number, ms: number) => {
      const until = Date.now() + ms;
      while (record.length < count) {
        if (Date.now() > until) return false;
        await new Promise((r) => setTimeout(r, 20));
      }
      return true;
    };
    /** The pages' ratio in alternating pairs of short runs, alone and while a mailing of PAIR_SUBSCRIBERS sends. */
    const pairs = () =>
      alternatingPairs(
        PAIRS,
        async () => rpsOf(await pageLoad(PAIR_SECONDS)),
        async (pair) => {
          const start = record.length;
          const { recipients } = await mailingReady(databaseUrl, {
            subscribers: PAIR_SUBSCRIBERS,
            topic: "insurance",
            people: "pair",
            title: `Pair ${pair + 1}: coverage after a cyber incident`,
          });
          // Once its first message is in; the job's turn comes every few seconds.
          if (!(await received(start + 1, 15_000))) throw new Error(`pair ${pair + 1}: the mailing did not start within 15 s`);
          const run = await pageLoad(PAIR_SECONDS);
          if (record.length >= start + recipients.length) {
            throw new Error(`pair ${pair + 1}: the mailing ended before the page run did; raise BENCH_MAIL_PAIR_SUBSCRIBERS`);
          }
          if (!(await received(start + recipients.length, 60_000))) throw new Error(`pair ${pair + 1}: the mailing did not finish`);
          return rpsOf(run);
        },
      );
    await fetch(page).then((r) => r.arrayBuffer());
    await pageLoad(2);
    const alone = await pageLoad(PAGE_SECONDS * 2);
    const aloneRps = rpsOf(alone);
    const rssBefore = rssMb(pid);
    say(`cached ${page} alone: ${Math.round(aloneRps)} req/s (${errorsOf(alone)} errors); server RSS ${rssBefore.toFixed(0)} MB`);

    say(`${SUBSCRIBERS.toLocaleString("en-CA")} confirmed subscribers and an article set to go to them…`);
    const { recipients } = await mailingReady(databaseUrl, { subscribers: SUBSCRIBERS, topic: "cyber" });
    const started = Date.now();
    const cpuStart = cpuMs(pid);
    let rssPeak = rssMb(pid);
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 200);
    const during: number[] = [];
    while (Date.now() - started < 120_000) {
      if (!WITH_PAGES) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        if (record.length >= recipients.length) break;
        continue;
      }
      const run = await pageLoad(PAGE_SECONDS);
      if (record.length < recipients.length) during.push(rpsOf(run));
      if (record.length >= recipients.length) break;
      say(`  ${record.length.toLocaleString("en-CA")} delivered after ${Math.round((Date.now() - started) / 1000)} s`);
    }
    clearInterval(sampler);
    const sendingCpu = cpuMs(pid) - cpuStart;
    const sendingMs = Date.now() - started;
    const seconds = record.length >= recipients.length ? (Math.max(...record.map((m) => m.at)) - started) / 1000 : Infinity;
    const { rows } = await pool.query<{ status: string; n: string }>(
      "select status, count(*) as n from mailing_deliveries group by status",
    );
    const counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    const unique = new Set(record.flatMap((m) => m.to)).size;
    // The page alone once more, after the mailing: this machine kind runs in fast and slow streaks (docs/performance.md),
    // so the reference is the mean of the runs before and after, not the one before only.
    const aloneAfterRps = WITH_PAGES ? rpsOf(await pageLoad(PAGE_SECONDS * 2)) : aloneRps;
    const referenceRps = (aloneRps + aloneAfterRps) / 2;
    const duringRps = during.length ? during.reduce((a, b) => a + b, 0) / during.length : referenceRps;
    const ratio = duringRps / referenceRps;
    const growth = rssPeak - rssBefore;
    say(
      `delivered ${record.length.toLocaleString("en-CA")} messages to ${unique.toLocaleString("en-CA")} addresses of ${recipients.length.toLocaleString("en-CA")} in ${Number.isFinite(seconds) ? seconds.toFixed(1) : "—"} s (target ≤ ${TARGETS.seconds} s): ${seconds <= TARGETS.seconds ? "met" : "not met"}; deliveries ${JSON.stringify(counts)}`,
    );
    say(
      `server RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB: +${growth.toFixed(0)} MB (target ≤ ${TARGETS.rssGrowthMb}): ${growth <= TARGETS.rssGrowthMb ? "met" : "not met"}`,
    );
    say(
      `cached page while sending: ${Math.round(duringRps)} req/s over ${during.length} runs = ${ratio.toFixed(2)} of its own (${Math.round(aloneRps)} before, ${Math.round(aloneAfterRps)} after${WITH_PAGES ? "; one run alone each side: the pairs below decide" : ""})`,
    );
    if (!(seconds <= TARGETS.seconds)) failures.push(`delivered in ${seconds} s`);
    if (record.length !== recipients.length || unique !== recipients.length) failures.push("not every recipient got exactly one message");
    if (growth > TARGETS.rssGrowthMb) failures.push(`RSS grew ${growth.toFixed(0)} MB`);
    say(
      `server busy ${Math.round((sendingCpu / sendingMs) * 100)} % of one core while it sent${WITH_PAGES ? " (pages included)" : `: ${Math.round((sendingCpu * 1000) / Math.max(1, record.length))} µs of CPU a message`}`,
    );
    say(`messages average ${Math.round(record.reduce((a, m) => a + m.bytes, 0) / Math.max(1, record.length) / 1024)} KB`);
    if (WITH_PAGES) {
      const pairRatios = await pairs();
      const pairRatio = median(pairRatios);
      say(
        `cached page while a mailing sends, ${PAIRS} pairs of ${PAIR_SECONDS}-second runs (alone, then while ${PAIR_SUBSCRIBERS.toLocaleString("en-CA")} messages go, or the other way round): median ${pairRatio.toFixed(2)} of its own (pairs ${pairRatios.map((r) => r.toFixed(2)).join(", ")}) (target ≥ ${TARGETS.pageRatio}): ${pairRatio >= TARGETS.pageRatio ? "met" : "not met"}`,
      );
      if (pairRatio < TARGETS.pageRatio) failures.push(`cached pages at ${pairRatio.toFixed(2)} of their throughput (median pair)`);
    }
    say(loadAverageText());
  } finally {
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
    await sink.close();
    await pool.end();
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
  if (failures.length) {
    say(`targets missed: ${failures.join("; ")}`);
    process.exit(1);
  }
  say("all targets met");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

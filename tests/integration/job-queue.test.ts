/**
 * The job queue (pg-boss, decision 0026) on the project's own database
 * client: PGlite's one connection (`npx vitest run`) and the pg pool on
 * PostgreSQL (`npm run test:pg`). A job runs at start and on its schedule, a
 * run is not started while another is under way, a job that fails its last
 * attempt is on the dead-letter list with its error and can be sent again,
 * and on PostgreSQL two instances never run a job twice for one turn.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/.server/db/client";
import { createJobQueue, type TimedJob } from "~/.server/jobs/queue";
import { createTestDatabase, onPostgres, setUpTestDatabase } from "../support/database";

const state = setUpTestDatabase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for `done` (not timed: the machine may be busy), at most `ms`. */
async function until(done: () => boolean, ms: number) {
  for (const end = Date.now() + ms; !done() && Date.now() < end;) await sleep(50);
}

describe("the job queue", () => {
  it("runs a job once at start, then on its schedule, and no more once stopped", async () => {
    let counted = 0;
    const queue = createJobQueue(state.database, [
      { name: "count", when: { everySeconds: 1 }, run: () => Promise.resolve(void counted++) },
    ]);
    await queue.start();
    expect(counted).toBe(1);
    await until(() => counted >= 3, 20_000);
    await queue.stop();
    expect(counted).toBeGreaterThanOrEqual(3);
    const stopped = counted;
    await sleep(1500);
    expect(counted).toBe(stopped);
  }, 60_000);

  it("does not start a run of a job while another is under way", async () => {
    let release!: () => void;
    let runs = 0;
    const queue = createJobQueue(state.database, [
      { name: "slow", when: { cron: "0 0 1 1 *" }, runAtStart: false, run: () => new Promise<void>((r) => (runs++, (release = r))) },
    ]);
    await queue.start({ work: false });
    const first = queue.runNow("slow");
    await until(() => runs === 1, 10_000);
    expect(await queue.runNow("slow")).toBe("skipped");
    release();
    expect(await first).toBe("ran");
    expect(runs).toBe(1);
    await queue.stop();
  }, 60_000);

  it("puts a job that failed its last attempt on the dead-letter list with its error; Retry sends it again", async () => {
    let broken = true;
    const queue = createJobQueue(state.database, [
      {
        name: "sometimes",
        when: { cron: "0 0 1 1 *" },
        runAtStart: false,
        run: () => (broken ? Promise.reject(new Error("the work failed")) : Promise.resolve()),
      },
    ]);
    await queue.start({ work: false });
    // Its last attempt now (the queue's own policy waits 30 s and more between six attempts).
    await queue.boss.send("sometimes", null, { retryLimit: 0 });
    expect(await queue.runNow("sometimes")).toBe("failed");
    const failed = await queue.failedJobs();
    expect(failed).toEqual([expect.objectContaining({ job: "sometimes", detail: null, error: "the work failed", attempts: 1 })]);

    broken = false;
    expect(await queue.retryFailedJob(failed[0].id)).toEqual({ outcome: "queued", name: "sometimes", label: "sometimes" });
    expect(await queue.failedJobs()).toEqual([]);
    expect(await queue.retryFailedJob(failed[0].id)).toBe("gone");
    expect(await queue.runNow("sometimes")).toBe("ran");
    await queue.stop();
  }, 60_000);
});

describe.skipIf(!onPostgres)("two instances on one PostgreSQL", () => {
  it("run each turn of a job once, never two runs of it at once, and send a cron job once", async () => {
    const { database: first, url, drop } = await createTestDatabase();
    // A second pool on the same database, as a second server process would have.
    const other = await openDatabase({ url: url! });
    let running = 0;
    let overlap = false;
    let ticks = 0;
    /** When each run of the minute's cron job began. */
    const minuteRuns: number[] = [];
    const jobs = (): TimedJob[] => [
      {
        name: "tick",
        when: { everySeconds: 1 },
        runAtStart: false,
        run: async () => {
          if (++running > 1) overlap = true;
          ticks++;
          await sleep(300);
          running--;
        },
      },
      { name: "minute", when: { cron: "* * * * *" }, runAtStart: false, run: () => Promise.resolve(void minuteRuns.push(Date.now())) },
    ];
    const a = createJobQueue(first, jobs());
    const b = createJobQueue(other, jobs());
    const started = Date.now();
    await Promise.all([a.start(), b.start()]);
    // pg-boss's cron sends the minute's job within a minute and its pass (5 s); then a few seconds more.
    await until(() => minuteRuns.length > 0, 90_000);
    await sleep(8_000);
    await Promise.all([a.stop(), b.stop()]);
    const seconds = (Date.now() - started) / 1000;
    // Each minute's job once: at most one run for each minute the test spanned (sent by both instances, a minute would
    // run twice). The 8 s after the first run may reach the next minute; a PostgreSQL run here once saw 2 runs then.
    const minutesSpanned = Math.floor(Date.now() / 60_000) - Math.floor(started / 60_000) + 1;
    expect(minuteRuns.length).toBeGreaterThanOrEqual(1);
    expect(minuteRuns.length).toBeLessThanOrEqual(minutesSpanned);
    expect(overlap).toBe(false);
    expect(ticks).toBeGreaterThan(2);
    // One run a second at most, for two instances each sending every second.
    expect(ticks).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    await other.close();
    await drop();
  }, 150_000);
});

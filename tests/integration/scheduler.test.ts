/**
 * The one scheduler: each job runs at start-up and on its interval, its runs
 * are recorded in job_runs, a failing job is recorded and does not stop the
 * others, and on PostgreSQL two processes never run the same job at once.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/.server/db/client";
import { jobRuns } from "~/.server/db/schema";
import { createScheduler, type ScheduledJob } from "~/.server/jobs/scheduler";
import { createTestDatabase, onPostgres, setUpTestDatabase } from "../support/database";

const state = setUpTestDatabase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("scheduler", () => {
  it("runs each job at start and on its interval, records runs, and keeps going after a failure", async () => {
    let counted = 0;
    const jobs: ScheduledJob[] = [
      { name: "count", everyMs: 50, run: () => Promise.resolve(void counted++) },
      {
        name: "broken",
        everyMs: 50,
        run: () => Promise.reject(new Error("the work failed")),
      },
      { name: "later", everyMs: 60_000, runAtStart: false, run: async () => {} },
    ];
    const scheduler = createScheduler(state.database, jobs);
    await scheduler.start();
    expect(counted).toBe(1);
    // Runs again on its interval (waited for, not timed: the machine may be busy).
    for (let waited = 0; counted < 3 && waited < 10_000; waited += 25) await sleep(25);
    await scheduler.stop();
    expect(counted).toBeGreaterThanOrEqual(3);
    const stopped = counted;
    await sleep(120);
    expect(counted).toBe(stopped);

    const runs = await state.database.db.select().from(jobRuns);
    const count = runs.find((r) => r.name === "count")!;
    expect(count.last_ok_at).toBeInstanceOf(Date);
    expect(count.last_error).toBeNull();
    const broken = runs.find((r) => r.name === "broken")!;
    expect(broken.last_error).toBe("the work failed");
    expect(broken.last_ok_at).toBeNull();
    expect(runs.some((r) => r.name === "later")).toBe(false);
  });

  it("does not start a run of a job while the previous one is still going", async () => {
    let release!: () => void;
    const scheduler = createScheduler(state.database, [
      { name: "slow", everyMs: 60_000, runAtStart: false, run: () => new Promise<void>((r) => (release = r)) },
    ]);
    const first = scheduler.runNow("slow");
    await sleep(50);
    expect(await scheduler.runNow("slow")).toBe("busy");
    release();
    expect(await first).toBe("ran");
    await scheduler.stop();
  });
});

describe.skipIf(!onPostgres)("two processes on one PostgreSQL", () => {
  it("exactly one of them runs a job at a time; the other skips that turn", async () => {
    const { database: first, url, drop } = await createTestDatabase();
    // A second pool on the same database, as a second server process would have.
    const other = await openDatabase({ url: url! });
    let running = 0;
    let overlap = false;
    let runs = 0;
    const job = (): ScheduledJob => ({
      name: "publish",
      everyMs: 60_000,
      runAtStart: false,
      run: async () => {
        running++;
        if (running > 1) overlap = true;
        runs++;
        await sleep(300);
        running--;
      },
    });
    const a = createScheduler(first, [job()]);
    const b = createScheduler(other, [job()]);
    const outcomes = await Promise.all([a.runNow("publish"), b.runNow("publish")]);
    expect(outcomes.sort()).toEqual(["locked", "ran"]);
    expect(runs).toBe(1);
    expect(overlap).toBe(false);
    // The lock is released after the run: the next turn may go to either.
    expect(await b.runNow("publish")).toBe("ran");
    const [row] = await other.db.select().from(jobRuns).where(eq(jobRuns.name, "publish"));
    expect(row?.last_ok_at).toBeInstanceOf(Date);
    await a.stop();
    await b.stop();
    await other.close();
    await drop();
  });
});

/**
 * The one scheduler for timed work (scheduled publishing, retention sweeps,
 * mail retries, the picture sweep). Jobs are listed in `jobs.ts`.
 *
 * - Each job runs once when the server starts (so what fell due while no
 *   server was running happens at the next start), then every `everyMs`.
 * - Several processes on one PostgreSQL: a run first takes a session-level
 *   advisory lock for that job (`pg_try_advisory_lock(class, hashtext(name))`)
 *   on a connection of its own; a process that does not get it skips that
 *   turn. So exactly one process runs a job at a time, and a process that
 *   dies mid-run releases the lock with its connection (decision 0005).
 *   Jobs are also written to be safe to repeat (conditional updates), so a
 *   run cut short is finished by the next one.
 * - The embedded database has one process: runs only skip a turn while the
 *   previous run of the same job is still going.
 * - Each run's start, end and error are kept in `job_runs` (monitoring).
 */
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { Database } from "../db/client";
import { jobRuns } from "../db/schema";
import { log } from "../log";

export type ScheduledJob = {
  /** Unique, stable: it names the lock and the `job_runs` row. */
  name: string;
  everyMs: number;
  /** Run once at start-up (default true). */
  runAtStart?: boolean;
  /** The work; what it returns (counts) is logged when it did something. */
  run(): Promise<void | Record<string, number>>;
};

export type Scheduler = {
  /** Runs the at-start jobs (awaited) and starts the timers. */
  start(): Promise<void>;
  /** One run now: "ran", "busy" (already running here) or "locked" (another process has it). */
  runNow(name: string): Promise<"ran" | "busy" | "locked">;
  /** Stops the timers and waits (at most `waitMs`) for runs under way. */
  stop(waitMs?: number): Promise<void>;
};

/** First key of the two-key advisory locks the scheduler takes (the second is hashtext(job name)). */
export const SCHEDULER_LOCK_CLASS = 72707002;

export function createScheduler(database: Database, jobs: readonly ScheduledJob[]): Scheduler {
  const byName = new Map(jobs.map((j) => [j.name, j]));
  if (byName.size !== jobs.length) throw new Error("Two scheduled jobs have the same name.");
  const running = new Map<string, Promise<unknown>>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  async function withLock<T>(name: string, work: () => Promise<T>): Promise<{ locked: true } | { locked: false; value: T }> {
    if (database.kind !== "postgres" || !database.pool) return { locked: false, value: await work() };
    const client: pg.PoolClient = await database.pool.connect();
    let held = false;
    try {
      const { rows } = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1::int, hashtext($2)) as ok", [
        SCHEDULER_LOCK_CLASS,
        name,
      ]);
      held = rows[0]?.ok === true;
      if (!held) return { locked: true };
      return { locked: false, value: await work() };
    } finally {
      if (held) await client.query("select pg_advisory_unlock($1::int, hashtext($2))", [SCHEDULER_LOCK_CLASS, name]).catch(() => {});
      client.release();
    }
  }

  async function note(name: string, values: Partial<typeof jobRuns.$inferInsert>) {
    await database.db
      .insert(jobRuns)
      .values({ name, ...values })
      .onConflictDoUpdate({ target: jobRuns.name, set: values })
      .catch((error: unknown) => log("warn", "scheduler: could not record a run", { job: name, error: (error as Error).message }));
  }

  async function runOnce(job: ScheduledJob): Promise<"ran" | "busy" | "locked"> {
    if (running.has(job.name)) return "busy";
    let settle!: () => void;
    running.set(job.name, new Promise<void>((resolve) => (settle = resolve)));
    try {
      const outcome = await withLock(job.name, async () => {
        const started = new Date();
        await note(job.name, { last_started_at: started });
        try {
          const result = await job.run();
          await note(job.name, { last_finished_at: new Date(), last_ok_at: new Date(), last_error: null });
          if (result && Object.values(result).some((n) => n > 0))
            log("info", `scheduled job ${job.name}`, { ...result, ms: Date.now() - started.getTime() });
        } catch (error) {
          const message = (error as Error).message;
          await note(job.name, { last_finished_at: new Date(), last_error: message.slice(0, 500) });
          log("error", `scheduled job ${job.name} failed`, { error: message });
        }
      });
      return outcome.locked ? "locked" : "ran";
    } catch (error) {
      // No connection for the lock (database down): the next turn tries again.
      log("warn", `scheduled job ${job.name} skipped: database unavailable`, { error: (error as Error).message });
      return "busy";
    } finally {
      running.delete(job.name);
      settle();
    }
  }

  return {
    async start() {
      await Promise.all(jobs.filter((j) => j.runAtStart !== false).map((j) => runOnce(j)));
      if (stopped) return;
      for (const job of jobs) {
        const timer = setInterval(() => {
          if (!stopped) void runOnce(job);
        }, job.everyMs);
        timer.unref();
        timers.push(timer);
      }
    },
    async runNow(name) {
      const job = byName.get(name);
      if (!job) throw new Error(`No scheduled job named ${name}.`);
      return runOnce(job);
    },
    async stop(waitMs = 5000) {
      stopped = true;
      for (const t of timers) clearInterval(t);
      timers.length = 0;
      const pending = [...running.values()];
      if (pending.length) await Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, waitMs).unref())]);
    },
  };
}

/** Rows of `job_runs`, for monitoring (readiness details, the dashboard). */
export async function listJobRuns(database: Database) {
  return database.db
    .select()
    .from(jobRuns)
    .orderBy(sql`${jobRuns.name}`);
}

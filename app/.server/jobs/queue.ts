/**
 * The one job queue for timed and retried work: pg-boss (decision 0026), on
 * the same database as everything else. The embedded database (PGlite, one
 * connection) is reached through pg-boss's `fromPglite` adapter, so its
 * statements take their turn on that connection like every other query;
 * PostgreSQL through the app's `pg` pool, one pooled connection a statement
 * (a run holds no connection, and no lock, between its statements).
 *
 * - Each job of `jobs.ts` is a queue. A job that runs every minute or less
 *   often has pg-boss's cron schedule: pg-boss sends one job an occurrence
 *   however many instances run. pg-boss's cron sends at most one job a
 *   minute (one a throttle slot of 60 s), so the jobs that run more often
 *   (`everySeconds`) are sent by each instance every `everySeconds` with
 *   pg-boss's throttle (`sendThrottled`): one job a slot of that length
 *   however many instances send it.
 * - The queue's policy says how many of its jobs may be active at once
 *   across instances: `exclusive` (one queued or active; a turn that comes
 *   while a run is under way is skipped) or `singleton` (one active).
 * - One retry policy (retry.ts) for every queue: pg-boss's limit and
 *   exponential backoff; a job that fails its last attempt is copied to the
 *   `dead-letter` queue, which owners read and retry on the dashboard.
 * - A run's liveness is its heartbeat: the job of an instance killed mid-run
 *   is failed (and another run may start) within HEARTBEAT_SECONDS plus one
 *   supervision turn.
 * - `start()` runs each job once, awaited, before the server listens (what
 *   fell due while no server ran happens then), unless another instance is
 *   running it.
 * - Each worker asks its queue for a job every second when the job is sent
 *   on demand (no `when`: an e-mail, certificates, an import, sent inside a
 *   request's transaction, here or on another instance), and every
 *   TIMED_POLL_SECONDS when it is timed: a worker's empty look is a query,
 *   and an idle server made ~17 a second. A timed job this instance sends
 *   (its `everySeconds` turn, a failed job retried) wakes its own worker at
 *   once (`notifyWorker`); one pg-boss's cron sends waits at most that long.
 * - A job without `when` runs only when sent, with its data (`boss.send`,
 *   e.g. the certificates of one event, keyed by `singletonKey` so its
 *   policy holds per key): never on a schedule, never at start-up. One with
 *   `worker: false` is fetched in batches by another job's run instead
 *   (mailing deliveries), which then beats their heartbeats (`touch`): pg-boss
 *   refreshes the heartbeats of the jobs its own workers run, not of fetched ones.
 */
import { PgBoss, fromPglite, type Db, type JobWithMetadata, type QueuePolicy } from "pg-boss";
import { sql } from "drizzle-orm";
import type { Database, Db as Transaction } from "../db/client";
import { rowsOf } from "../db/rows";
import { log } from "../log";
import { RETRY } from "./retry";

/** What a job's run returns (counts) is logged when something was done, and kept as the job's output. */
export type JobResult = void | Record<string, number>;

/** Which try of a job a run is: pg-boss's retry count (0 for the first) and the job's retry limit. */
export type Attempt = { retryCount: number; retryLimit: number };

/** The row id a job of one row carries (data `{ id }`: an Outbox message, a WordPress run); null when it carries none. */
export function jobRowId(data: unknown): number | null {
  const id = Number((data as { id?: unknown } | null)?.id);
  return Number.isInteger(id) ? id : null;
}

export type TimedJob = {
  /** Unique, stable: the queue's name. */
  name: string;
  /** What it is, in words, for owners (Failed jobs); the name when absent. */
  label?: string;
  /** Which one a failed run was, in words, from its data (an e-mail's address and subject); null when there is nothing to add. */
  describe?(data: unknown): Promise<string | null>;
  /**
   * When it runs: a cron expression (5 fields, minutes at the finest; UTC), or every this many seconds (under a
   * minute). Without it, only when sent (`boss.send(name, data)`), with that data.
   */
  when?: { cron: string } | { everySeconds: number };
  /** `exclusive` (default): a turn is skipped while a run is queued or active; `singleton`: runs queue up behind the active one. */
  policy?: Extract<QueuePolicy, "exclusive" | "singleton">;
  /** The longest a run may take (seconds) before it counts as failed. Default 15 minutes. */
  expireInSeconds?: number;
  /**
   * `false`: no worker of its own; another job's run fetches its jobs in batches (the mailings' deliveries, fetched by the
   * paced `mailing-send` run, which beats their heartbeats itself).
   */
  worker?: false;
  /** Run once at start-up (default true for a job with `when`; never for one without). */
  runAtStart?: boolean;
  /** `data`: what the job was sent with (null for a timed turn); `attempt`: which try this is (pg-boss's retry count and limit). */
  run(data?: unknown, attempt?: Attempt): Promise<JobResult>;
};

/** How often the worker of a timed job looks for one (an on-demand job's looks every second). */
export const TIMED_POLL_SECONDS = 5;
/** A run's heartbeat: a job whose instance stopped beating this long is failed by the next supervision turn. */
export const HEARTBEAT_SECONDS = 10;
/** Where jobs go that failed their last attempt (dashboard: Failed jobs). */
export const DEAD_LETTER = "dead-letter";
/** pg-boss's tables live in their own schema, beside the app's. */
export const QUEUE_SCHEMA = "pgboss";

export type RunOutcome = "ran" | "failed" | "skipped";

/** A job that failed its last attempt, as owners read it (dashboard: Failed jobs). */
export type FailedJob = { id: string; job: string; detail: string | null; failedAt: Date; attempts: number; error: string };

export type JobQueue = {
  /** Whether this queue has the job `name` (its queue created and known to pg-boss's cache once started). */
  has(name: string): boolean;
  /** Creates the queues and schedules, runs the at-start jobs (awaited; `catchUp: false` skips them) and starts the workers (`work: false` does not). */
  start(options?: { work?: boolean; catchUp?: boolean }): Promise<void>;
  /** One run now, through the queue: "skipped" when a run is already queued or under way (here or elsewhere). */
  runNow(name: string): Promise<RunOutcome>;
  /** Stops the workers and the schedules, waiting (at most `waitMs`) for runs under way. */
  stop(waitMs?: number): Promise<void>;
  /** The dead-letter queue, newest first. */
  failedJobs(): Promise<FailedJob[]>;
  /** Sends a failed job to its queue again as a fresh job (pg-boss's redrive, for one) and takes it off the list; false when it is not there. */
  retryFailedJob(id: string): Promise<{ outcome: "queued" | "already-waiting"; name: string; label: string } | "gone">;
  boss: PgBoss;
};

/** pg-boss's connection to the app's database: the PGlite's own connection, or the pg pool. */
export function queueDb(database: Database): Db {
  if (database.pglite) return fromPglite(database.pglite);
  const pool = database.pool;
  if (!pool) throw new Error("The database has neither a PGlite nor a pg pool.");
  return {
    async executeSql(text, values) {
      if (values?.length) return pool.query(text, values);
      // Without values it may be several statements in a BEGIN … COMMIT of pg-boss's (its schema, its
      // locked maintenance): one that fails must not hand the pool a connection inside an aborted transaction.
      const client = await pool.connect();
      try {
        return await client.query(text);
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** pg-boss's connection over the caller's transaction (drizzle), so a job is written (or settled) in the transaction that writes its row. */
export function overTransaction(tx: Transaction): Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      // pg-boss's statements number their values ($1…): each becomes one bound parameter of drizzle's (an array too,
      // which drizzle would otherwise spread into a list of parameters).
      const chunks = text.split(/\$(\d+)\b/).map((part, i) => (i % 2 ? sql`${sql.param(values[Number(part) - 1])}` : sql.raw(part)));
      return { rows: rowsOf<Record<string, unknown>>(await tx.execute(sql.join(chunks))) };
    },
  };
}

export function createJobQueue(database: Database, jobs: readonly TimedJob[]): JobQueue {
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const timers: NodeJS.Timeout[] = [];
  /** This instance's worker of each job, by job name (boss.work's id). */
  const workers = new Map<string, string>();
  let stopped = false;
  if (byName.size !== jobs.length) throw new Error("Two timed jobs have the same name.");
  const boss = new PgBoss({
    db: queueDb(database),
    backend: database.kind === "pglite" ? "pglite" : "postgres",
    schema: QUEUE_SCHEMA,
    // Schedules looked at every 5 s (the seconds of a 6-field cron are honoured to that), heartbeats and
    // expiry every 10 s; nothing keeps a connection of its own (no LISTEN).
    cronMonitorIntervalSeconds: 5,
    cronWorkerIntervalSeconds: 5,
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
  });
  boss.on("error", (error: Error) => log("warn", "job queue", { error: error.message }));

  async function handle(job: TimedJob, data: unknown = null, attempt?: Attempt): Promise<JobResult> {
    const started = Date.now();
    try {
      const result = await job.run(data, attempt);
      if (result && Object.values(result).some((n) => n > 0)) log("info", `job ${job.name}`, { ...result, ms: Date.now() - started });
      return result;
    } catch (error) {
      log("error", `job ${job.name} failed`, { error: (error as Error).message });
      throw error;
    }
  }

  async function ensureQueues() {
    if (!(await boss.getQueue(DEAD_LETTER))) await boss.createQueue(DEAD_LETTER, { retentionSeconds: 30 * 24 * 3600 });
    for (const job of jobs) {
      const options = {
        ...RETRY,
        heartbeatSeconds: HEARTBEAT_SECONDS,
        expireInSeconds: job.expireInSeconds ?? 15 * 60,
        deadLetter: DEAD_LETTER,
      };
      if (!(await boss.getQueue(job.name))) await boss.createQueue(job.name, { ...options, policy: job.policy ?? "exclusive" });
      else {
        const { retryDelayMax: _max, heartbeatSeconds: _beat, ...changeable } = options;
        await boss.updateQueue(job.name, changeable);
      }
      if (job.when && "cron" in job.when) await boss.schedule(job.name, job.when.cron);
      else await boss.unschedule(job.name);
    }
  }

  /** Wakes this instance's worker of `name` (if it runs one) so it looks for the job just sent now, not at its next poll. */
  function wake(name: string) {
    const worker = workers.get(name);
    if (worker) boss.notifyWorker(worker);
  }

  /** The jobs that run more often than pg-boss's cron can send: each instance sends them, one a slot. */
  function startTickers() {
    for (const job of jobs) {
      if (!job.when || !("everySeconds" in job.when)) continue;
      const seconds = job.when.everySeconds;
      const timer = setInterval(() => {
        if (!stopped)
          void boss
            .sendThrottled(job.name, null, null, seconds)
            .then((sent) => sent && wake(job.name))
            .catch((error: Error) => log("warn", "job queue", { error: error.message }));
      }, seconds * 1000);
      timer.unref();
      timers.push(timer);
    }
  }

  async function runNow(name: string): Promise<RunOutcome> {
    const job = byName.get(name);
    if (!job) throw new Error(`No timed job named ${name}.`);
    if (job.when) await boss.send(name, null);
    const [fetched] = await boss.fetch(name, { includeMetadata: true });
    if (!fetched) return "skipped";
    return runFetched(job, fetched);
  }

  /** Runs a job fetched by hand (not by a worker), beating its heartbeat meanwhile, and settles it. */
  async function runFetched(job: TimedJob, fetched: JobWithMetadata<unknown>): Promise<RunOutcome> {
    const beat = setInterval(() => void boss.touch(job.name, fetched.id).catch(() => {}), (HEARTBEAT_SECONDS * 1000) / 2);
    try {
      const result = await handle(job, fetched.data, { retryCount: fetched.retryCount, retryLimit: fetched.retryLimit });
      await boss.complete(job.name, fetched.id, result ?? undefined);
      return "ran";
    } catch (error) {
      await boss.fail(job.name, fetched.id, { message: (error as Error).message });
      return "failed";
    } finally {
      clearInterval(beat);
    }
  }

  async function failedJobs(): Promise<FailedJob[]> {
    const letters = await boss.findJobs(DEAD_LETTER, { queued: true });
    const failed = await Promise.all(
      letters.map(async (letter): Promise<FailedJob> => {
        const source = letter.sourceName && letter.sourceId ? await boss.getJobById(letter.sourceName, letter.sourceId) : null;
        const output = (source?.output ?? {}) as { message?: unknown };
        const definition = letter.sourceName ? byName.get(letter.sourceName) : undefined;
        return {
          id: letter.id,
          job: definition?.label ?? letter.sourceName ?? "(unknown)",
          detail: (await definition?.describe?.(letter.data).catch(() => null)) ?? null,
          failedAt: letter.createdOn,
          attempts: (source?.retryCount ?? 0) + 1,
          error: typeof output.message === "string" ? output.message : "(no error recorded)",
        };
      }),
    );
    return failed.sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime());
  }

  async function retryFailedJob(id: string): Promise<{ outcome: "queued" | "already-waiting"; name: string; label: string } | "gone"> {
    const [letter] = await boss.findJobs(DEAD_LETTER, { id, queued: true });
    if (!letter?.sourceName) return "gone";
    // With the failed job's key (a job sent for one thing, e.g. one event's certificates): its policy holds per key, and its screen finds it.
    const source = letter.sourceId ? await boss.getJobById(letter.sourceName, letter.sourceId) : null;
    const sent = await boss.send(letter.sourceName, letter.data ?? null, source?.singletonKey ? { singletonKey: source.singletonKey } : {});
    await boss.deleteJob(DEAD_LETTER, id);
    const name = letter.sourceName;
    if (sent) wake(name);
    return { outcome: sent ? "queued" : "already-waiting", name, label: byName.get(name)?.label ?? name };
  }

  return {
    boss,
    has: (name) => byName.has(name),
    runNow,
    failedJobs,
    retryFailedJob,
    async start(options = {}) {
      // Two instances starting together on a new database may race to create pg-boss's schema: the loser tries again.
      await boss.start({ attempts: 3 });
      await ensureQueues();
      // Known to pg-boss's cache before the first send: a send written in the caller's transaction (db option) must not
      // look the queue up over the pool meanwhile (on PGlite, the one connection, held by that transaction).
      for (const job of jobs) await boss.findJobs(job.name, { id: "00000000-0000-0000-0000-000000000000" });
      if (options.catchUp !== false) await Promise.all(jobs.filter((j) => j.when && j.runAtStart !== false).map((j) => runNow(j.name)));
      if (options.work === false) return;
      for (const job of jobs.filter((j) => j.worker !== false)) {
        const pollingIntervalSeconds = job.when ? TIMED_POLL_SECONDS : 1;
        const worker = await boss.work(job.name, { pollingIntervalSeconds, batchSize: 1, includeMetadata: true }, async ([one]) =>
          one ? handle(job, one.data, { retryCount: one.retryCount, retryLimit: one.retryLimit }) : undefined,
        );
        workers.set(job.name, worker);
      }
      startTickers();
    },
    async stop(waitMs = 5000) {
      stopped = true;
      for (const t of timers) clearInterval(t);
      timers.length = 0;
      await boss.stop({ graceful: true, timeout: waitMs, close: false });
    },
  };
}

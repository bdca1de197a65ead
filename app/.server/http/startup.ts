/**
 * Start-up and shutdown of the server's services: the database (migrated),
 * demo content for an empty embedded database, and the staff account from
 * ADMIN_EMAIL / ADMIN_PASSWORD.
 */
import { systemActor } from "../db/audit";
import { createStaffAccount } from "../auth/staff-accounts";
import { countActiveOwners } from "../db/staff";
import { startContentSync } from "../db/content-sync";
import { closeDatabase, openConfiguredDatabase, type Database } from "../db/client";
import { isContentEmpty, seedDemoContent } from "../db/seed";
import { getEnv, type Env } from "../env";
import { log } from "../log";
import { processServices } from "../services";
import { completePictureWidths } from "../pictures/images";
import { siteJobs } from "../jobs/jobs";
import { closeMail, mailSettled } from "../mail/mail";
import { rowPictures } from "../pictures/picture-sweep";
import { createJobQueue, type JobQueue } from "../jobs/queue";
import { getStorage } from "../storage/storage";
import { startStatsIngest, stopStatsIngest } from "../statistics/stats-ingest";
import { redirectStore } from "../db/redirects";
import { redirectEngine, RedirectEngine, setRedirectEngine } from "../redirects/engine";
import { startNotFoundLog, stopNotFoundLog } from "../redirects/not-found";

export async function ensureAdminFromEnv(env: Env = getEnv()): Promise<void> {
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const created = await createStaffAccount(env.ADMIN_EMAIL, env.ADMIN_PASSWORD, "Staff", "owner", systemActor("ADMIN_EMAIL at start-up"));
    if (created) log("info", "staff account created", { email: env.ADMIN_EMAIL });
  } else if (env.ADMIN_EMAIL || env.ADMIN_PASSWORD) {
    log("warn", "set both ADMIN_EMAIL and ADMIN_PASSWORD (12-128 characters) to create the staff account at start-up");
  } else {
    // A later start without the variables: the owner made at the first start (or by admin:create) is still there.
    const owners = await countActiveOwners();
    if (owners > 0) log("info", "staff accounts ready", { owners });
    else log("info", "no staff account configured: set ADMIN_EMAIL and ADMIN_PASSWORD, or run `npm run admin:create -- you@example.com`");
  }
}

export async function startServices(env: Env = getEnv()): Promise<Database> {
  const started = Date.now();
  const database = await openConfiguredDatabase(env);
  if (database.kind === "pglite" && env.SEED_DEMO && (await isContentEmpty())) {
    await seedDemoContent((message) => log("info", message));
  }
  await ensureAdminFromEnv(env);
  const storage = getStorage();
  if (storage.kind === "bucket") {
    // The site starts without its pictures (public pages do not need the bucket), and says so.
    storage.check?.().then(
      () => log("info", "picture bucket answers", { bucket: env.S3_BUCKET }),
      (error: unknown) =>
        log("error", "picture bucket does not answer; pages are served, picture uploads fail until it does", {
          error: (error as Error).message,
        }),
    );
  }
  if (database.kind === "postgres" && !env.AUTH_SECRET) {
    log(
      "warn",
      "AUTH_SECRET is not set: this instance signs sessions with a secret of its own DATA_DIR; set the same AUTH_SECRET on every instance",
    );
  }
  if (env.PICTURE_BASE_URL) {
    // The bucket serves the widths itself: make those older pictures lack (AVIF ones), in the background.
    completePictureWidths(rowPictures).then(
      (made) => made && log("info", "picture widths made for PICTURE_BASE_URL", { count: made }),
      (error: unknown) => log("warn", "picture widths not completed", { error: (error as Error).message }),
    );
  }
  holder.contentSync = await startContentSync(database);
  // Redirects in memory (decision 0025), reloaded when they change here or on another instance.
  const redirects = new RedirectEngine(redirectStore());
  await redirects.start();
  setRedirectEngine(redirects);
  startNotFoundLog();
  // Visit statistics: the day's salt in memory before the first beacon (stats-ingest.ts).
  await startStatsIngest();
  // Timed work (jobs.ts) on the job queue: each job runs once now (what fell due while no server ran), then on its schedule.
  holder.jobQueue = createJobQueue(database, siteJobs(database));
  await holder.jobQueue.start();
  log("info", "services ready", { database: database.kind, pictures: storage.kind, ms: Date.now() - started });
  return database;
}

// The content sync and the job queue are kept in the process's services (services.ts).
const holder = processServices();

/** The running job queue (the dashboard's failed jobs; tests run a job now through it). */
export function getJobQueue(): JobQueue | undefined {
  return holder.jobQueue;
}

/** Tests: the queue the routes send work to (none: undefined). */
export function setJobQueueForTests(queue: JobQueue | undefined): void {
  holder.jobQueue = queue;
}

export async function stopServices(): Promise<void> {
  // Messages a public form handed over after its answer reach the outbox, with their jobs, first (at most 10 s).
  await Promise.race([mailSettled(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  await holder.jobQueue?.stop();
  holder.jobQueue = undefined;
  // Beacons, redirect hits and 404 counts still in memory are written before the database closes.
  await stopStatsIngest();
  await redirectEngine()?.stop();
  setRedirectEngine(undefined);
  await stopNotFoundLog();
  closeMail();
  getStorage().close?.();
  await holder.contentSync?.stop();
  holder.contentSync = undefined;
  await closeDatabase();
}

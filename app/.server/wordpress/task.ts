/**
 * The dashboard's WordPress dry runs and imports as work of the one job queue
 * (issues 44 and 46; decision 0026): each run is a row of `wordpress_imports`
 * (its choices, progress and report, read by the screen) and its own pg-boss
 * job of the `wordpress-import` queue, so its tries, their backoff and its
 * dead letter are pg-boss's:
 *
 * - The upload streams the export into the site's storage (the bucket when
 *   one is configured, else DATA_DIR/uploads/imports), never whole in
 *   memory; the row and its job (data `{ id }`) are written in one
 *   transaction (`queueImport`).
 * - The job runs the row on whichever instance takes it, one run at a time
 *   on all instances (the queue's `singleton` policy), reading the export
 *   back from storage as a stream; the progress is written to the row at
 *   most once a second, and the screen reads it from any instance.
 * - A run whose instance stopped is failed by pg-boss on its heartbeat and
 *   tried again: the import is idempotent, it does what is not done yet. An
 *   error worth another try (the storage or the database not answering)
 *   fails the try, and pg-boss tries again with the one retry policy
 *   (jobs/retry.ts); after the last try the row says so and the job is on
 *   Failed jobs, whose Try again runs the row again. A problem with the file
 *   itself stops it at once. Either way the screen says the problem and what
 *   to do, in words.
 * - Stored exports are removed once imported, and a day after a dry run
 *   nobody imported (`sweepStoredExports`, the `wordpress-exports-sweep`
 *   job, which also gives a job to a run queued by an earlier version
 *   without one).
 *
 * The CLI (`npm run import:wordpress`) calls import.ts directly, in its own
 * process, on a file of the server's disk.
 */
import { randomUUID } from "node:crypto";
import type { Actor } from "../db/audit";
import { db, type Db } from "../db/client";
import {
  activeWordPressImports,
  claimWordPressImport,
  failWordPressImport,
  finishWordPressImport,
  forgetUpload,
  getWordPressImport,
  queueWordPressImport,
  setWordPressImportProgress,
  uploadsInUse,
  waitForNextTry,
  type WordPressImport,
} from "../db/wordpress-imports";
import { sitePatterns } from "../http/route-table";
import { jobRowId, overTransaction, type Attempt, type JobQueue, type TimedJob } from "../jobs/queue";
import { log } from "../log";
import { currentServices } from "../services";
import { getStorage, IMPORT_KEY, StorageUnavailable } from "../storage/storage";
import type { ArticleCategory } from "~/lib/practice";
import type { CategoryTarget } from "~/lib/wordpress-import";
import { ImportError, importWordPress } from "./import";
import { WxrError } from "./wxr";

/** The import screens' answer when the database cannot start the run. */
export const IMPORT_FAILED = "An error occurred while starting the import. Please try again.";

/** The site's storage (the bucket, or DATA_DIR) did not take an uploaded export. */
export const STORAGE_DOWN =
  "The export could not be stored: the site's file storage did not answer. Try again in a few minutes; if it goes on, tell whoever runs the server (the bucket's S3_ settings, or the disk of DATA_DIR).";

/** The upload went over its cap (nothing of it is kept). */
export class UploadTooLarge extends Error {}

/** A stored export nobody imported is removed this long after its last dry run ended. */
export const EXPORT_KEEP_MS = 24 * 60 * 60 * 1000;

/** A fresh storage key for an uploaded export; its upload time is in its name (the sweep reads it). */
export function newUploadKey(now = Date.now()): string {
  return `imports/${String(now).padStart(13, "0")}-${randomUUID()}.xml`;
}

/** Writes an upload's bytes (a stream) to the site's storage, refusing more than `maxBytes` (then nothing is kept); returns its size. */
export async function saveUpload(stream: ReadableStream<Uint8Array>, key: string, maxBytes: number): Promise<number> {
  if (!IMPORT_KEY.test(key)) throw new Error("Not an upload key.");
  return getStorage().putStream(
    key,
    stream as unknown as AsyncIterable<Uint8Array>,
    maxBytes,
    () => new UploadTooLarge(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`),
  );
}

/** What the import screen asks for: an uploaded export and the choices made on its dry run's report. */
export type ImportChoices = {
  pages: "articles" | "skip";
  defaultCategory: ArticleCategory;
  categoryMap: Record<string, CategoryTarget>;
};

/** The first dry run's choices, before any report: pages as articles, categories guessed. */
export const FIRST_CHOICES: ImportChoices = { pages: "articles", defaultCategory: "insurance", categoryMap: {} };

/** The job queue's queue of the runs: one job a run, data `{ id }` (jobs.ts). */
export const WORDPRESS_IMPORT_JOB = "wordpress-import";

/**
 * Writes run `id`'s job (through `tx`: in the transaction that writes the
 * row). Without a job queue in this process (a test that runs none) the row
 * waits until a server's `wordpress-exports-sweep` gives it one. Returns
 * whether a job was written.
 */
async function sendImportJob(jobQueue: JobQueue | undefined, id: number, tx?: Db): Promise<boolean> {
  if (!jobQueue?.has(WORDPRESS_IMPORT_JOB)) return false;
  return (await jobQueue.boss.send(WORDPRESS_IMPORT_JOB, { id }, tx ? { db: overTransaction(tx) } : {})) !== null;
}

/** Queues a dry run or an import of a stored export, with its job, in one transaction; returns its id. */
export function queueImport(
  input: { upload: string; fileName: string; dryRun: boolean; choices: ImportChoices },
  actor: Actor,
  createdBy: string,
  jobQueue: JobQueue | undefined,
): Promise<number> {
  return db().transaction(async (tx) => {
    const id = await queueWordPressImport(tx, {
      dryRun: input.dryRun,
      fileName: input.fileName,
      upload: input.upload,
      choices: { ...input.choices, actor },
      createdBy,
    });
    await sendImportJob(jobQueue, id, tx);
    return id;
  });
}

/**
 * An uploaded export (the form's file, or the page's streamed upload): kept
 * in storage, then its first dry run (FIRST_CHOICES) queued with its job;
 * returns the run's id. What saveUpload throws (UploadTooLarge,
 * StorageUnavailable) is the caller's to answer.
 */
export async function queueFirstDryRun(
  file: { stream: ReadableStream<Uint8Array>; name: string; maxBytes: number },
  actor: Actor,
  createdBy: string,
  jobQueue: JobQueue | undefined,
): Promise<number> {
  const upload = newUploadKey();
  await saveUpload(file.stream, upload, file.maxBytes);
  return queueImport({ upload, fileName: file.name.slice(0, 200), dryRun: true, choices: FIRST_CHOICES }, actor, createdBy, jobQueue);
}

/** What the screen says after "stopped:" of a file the importer could not read, and what to do. */
const BAD_FILE_FIX =
  "Export the site again in WordPress (Tools → Export → All content → Download Export File) and upload that file; do not open and save it in another program first.";
const GONE =
  "the uploaded export is no longer stored (an export is removed once imported, and a day after a dry run nobody imported). Upload the export again.";
/** How a run's error ends when it gave up after its last try (and Try again on Failed jobs may run it again). */
const AGAIN = "What was imported stays: press the button again (or upload the export again) and the rest is done.";

/**
 * Runs one claimed row to its end, or a stop with words. An error worth
 * another try is thrown (after the row says so), for pg-boss to try again;
 * on the last try (`attempt`) the row fails.
 */
async function runClaimed(row: WordPressImport, attempt: Attempt): Promise<void> {
  const choices = row.choices as ImportChoices & { actor: Actor };
  const upload = row.upload;
  if (!upload) return failWordPressImport(row.id, GONE);
  const storage = getStorage();
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  const progress = (p: { phase: string; done: number; total: number; message: string }) => {
    if (Date.now() - last < 1000) return;
    last = Date.now();
    pending = setWordPressImportProgress(row.id, { ...p, at: new Date().toISOString() }).catch(() => {});
  };
  await setWordPressImportProgress(row.id, {
    phase: "starting",
    done: 0,
    total: 0,
    message: attempt.retryCount > 0 ? `Starting again (attempt ${attempt.retryCount + 1} of ${attempt.retryLimit + 1})…` : "Starting…",
    at: new Date().toISOString(),
  });
  try {
    const first = await storage.getStream(upload);
    if (!first) {
      await forgetUpload(upload);
      return failWordPressImport(row.id, GONE);
    }
    let opened: AsyncIterable<Uint8Array> | undefined = first;
    const report = await importWordPress({
      // Read twice (the index, then the articles): the first stream is the one opened above.
      file: async () => {
        const stream = opened ?? (await storage.getStream(upload));
        opened = undefined;
        if (!stream) throw new ImportError(GONE);
        return stream;
      },
      dryRun: row.dry_run,
      pages: choices.pages,
      defaultCategory: choices.defaultCategory,
      categoryMap: choices.categoryMap,
      actor: choices.actor,
      sitePatterns: sitePatterns(),
      progress,
    });
    await pending;
    await finishWordPressImport(row.id, report);
    if (!row.dry_run) {
      // Imported: the export is not needed any more (a later dry run of it would be a new upload).
      await storage.delete(upload);
      await forgetUpload(upload);
    }
  } catch (error) {
    await pending;
    const message = (error as Error).message;
    if (error instanceof WxrError || error instanceof ImportError) {
      await failWordPressImport(row.id, message === GONE ? GONE : `${message} ${BAD_FILE_FIX}`);
      return;
    }
    log("warn", "wordpress import: try failed", { id: row.id, attempt: attempt.retryCount + 1, error: message });
    const what =
      error instanceof StorageUnavailable
        ? `the site's file storage did not answer (${message}). Check that the bucket or DATA_DIR is reachable (S3_ settings, disk space)`
        : `an error interrupted it (${message})`;
    if (attempt.retryCount >= attempt.retryLimit)
      await failWordPressImport(row.id, `${what}; it was tried ${attempt.retryCount + 1} times. ${AGAIN}`);
    else await waitForNextTry(row.id, `${what}; it is tried again automatically.`);
    // pg-boss tries the job again after its delay, or after the last try puts it on Failed jobs.
    throw new Error(what);
  }
}

/**
 * The `wordpress-import` job: one try of run `id` (data `{ id }`), as pg-boss
 * runs it (its try `retryCount` of `retryLimit` retries). A run already done,
 * failed for good or gone completes the job with nothing to do.
 */
export async function runImportJob(data: unknown, attempt: Attempt = { retryCount: 0, retryLimit: 0 }): Promise<{ runs: number }> {
  const id = jobRowId(data);
  if (id === null) return { runs: 0 };
  const row = await claimWordPressImport(id, AGAIN);
  if (!row) return { runs: 0 };
  await runClaimed(row, attempt);
  return { runs: 1 };
}

/** A run in words for Failed jobs: dry run or import, the file's name and who started it. */
async function describeImportJob(data: unknown): Promise<string | null> {
  const id = jobRowId(data);
  if (id === null) return null;
  const row = await getWordPressImport(id);
  if (!row) return `Run ${id}, no longer kept`;
  return `${row.dry_run ? "Dry run" : "Import"} of ${row.file_name} (run ${id}, started by ${row.created_by || "someone"})`;
}

/** The queue's entry for it (jobs.ts): only when sent, one run at a time on all instances. */
export const wordpressImportJob: TimedJob = {
  name: WORDPRESS_IMPORT_JOB,
  label: "WordPress import",
  describe: describeImportJob,
  // One active job on the whole queue (its jobs carry no singletonKey: with a key pg-boss's `singleton` is one active per key).
  policy: "singleton",
  expireInSeconds: 6 * 60 * 60,
  run: (data, attempt) => runImportJob(data, attempt),
};

/**
 * Gives a job to every run waiting or under way that has none (queued by
 * an earlier version, whose job ran every 5 s and took the oldest row), and
 * fails a run whose job gave up without saying so (its instance stopped
 * during its last try). Part of the hourly sweep, which also runs at
 * start-up.
 */
export async function queueStrandedImports(): Promise<{ runsQueued: number; runsFailed: number }> {
  const jobQueue = currentServices().jobQueue;
  let runsQueued = 0;
  let runsFailed = 0;
  if (!jobQueue?.has(WORDPRESS_IMPORT_JOB)) return { runsQueued, runsFailed };
  for (const id of await activeWordPressImports()) {
    const jobs = await jobQueue.boss.findJobs(WORDPRESS_IMPORT_JOB, { data: { id } });
    const last = jobs.at(-1);
    if (!last) {
      if (await sendImportJob(jobQueue, id)) runsQueued++;
    } else if (jobs.every((j) => j.state === "failed" || j.state === "completed" || j.state === "cancelled") && last.state === "failed") {
      await failWordPressImport(id, `the server stopped during it; it was tried ${last.retryCount + 1} times. ${AGAIN}`);
      runsFailed++;
    }
  }
  return { runsQueued, runsFailed };
}

/**
 * Removes stored exports no longer needed: one no run names (an upload whose
 * run was never queued, or one already imported), and one whose runs all
 * ended more than EXPORT_KEEP_MS ago (a dry run nobody imported). An export
 * younger than that is kept, so an upload under way is never touched.
 */
export async function sweepStoredExports(now = Date.now()): Promise<{ exportsRemoved: number }> {
  const storage = getStorage();
  const inUse = await uploadsInUse();
  let exportsRemoved = 0;
  for (const key of await storage.list("imports")) {
    const uploaded = Number(IMPORT_KEY.exec(key)?.[1] ?? now);
    if (now - uploaded < EXPORT_KEEP_MS) continue;
    const use = inUse.get(key);
    if (use && (use.active || !use.lastFinished || now - use.lastFinished.getTime() < EXPORT_KEEP_MS)) continue;
    await storage.delete(key);
    if (use) await forgetUpload(key);
    exportsRemoved++;
  }
  return { exportsRemoved };
}

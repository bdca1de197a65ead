/**
 * The dashboard's WordPress dry runs and imports as work of the one job queue
 * (issues 44 and 46; decision 0026), in the pattern of the subscriber import:
 *
 * - The upload streams the export into the site's storage (the bucket when
 *   one is configured, else DATA_DIR/uploads/imports), never whole in
 *   memory, and queues a row in `wordpress_imports` (db/wordpress-imports.ts).
 * - The `wordpress-import` job (jobs.ts; one run at a time on all instances)
 *   claims the oldest row waiting and runs it on whichever instance it runs
 *   on, reading the export back from storage as a stream; the progress is
 *   written to the row at most once a second, and the screen reads it from
 *   any instance.
 * - A run whose instance stopped is left `running`; the job's next run (once
 *   the queue has failed the stopped one on its heartbeat) starts it again:
 *   the import is idempotent, it does what is not done yet. An error worth
 *   another try (the storage or the database not answering) queues it again
 *   after the one retry policy's delay (jobs/retry.ts), up to MAX_ATTEMPTS;
 *   a problem with the file itself stops it at once. Either way the screen
 *   says the problem and what to do, in words.
 * - Stored exports are removed once imported, and a day after a dry run
 *   nobody imported (`sweepStoredExports`, the `wordpress-exports-sweep` job).
 *
 * The CLI (`npm run import:wordpress`) calls import.ts directly, in its own
 * process, on a file of the server's disk.
 */
import { randomUUID } from "node:crypto";
import type { Actor } from "../db/audit";
import {
  claimNextWordPressImport,
  failWordPressImport,
  finishWordPressImport,
  forgetUpload,
  queueWordPressImport,
  retryWordPressImportLater,
  setWordPressImportProgress,
  uploadsInUse,
  type WordPressImport,
} from "../db/wordpress-imports";
import { sitePatterns } from "../http/route-table";
import type { JobQueue } from "../jobs/queue";
import { MAX_ATTEMPTS, retryDelayMs } from "../jobs/retry";
import { log } from "../log";
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

/** Queues a dry run or an import of a stored export for the `wordpress-import` job; returns its id. */
export function queueImport(
  input: { upload: string; fileName: string; dryRun: boolean; choices: ImportChoices },
  actor: Actor,
  createdBy: string,
): Promise<number> {
  return queueWordPressImport({
    dryRun: input.dryRun,
    fileName: input.fileName,
    upload: input.upload,
    choices: { ...input.choices, actor },
    createdBy,
  });
}

/** Starts the `wordpress-import` job now rather than at its next turn (within 5 s). */
export function startImportSoon(jobQueue: JobQueue | undefined) {
  void jobQueue?.boss.send("wordpress-import", null).catch(() => {});
}

/**
 * An uploaded export (the form's file, or the page's streamed upload): kept
 * in storage, then its first dry run (FIRST_CHOICES) queued and started at
 * once; returns the run's id. What saveUpload throws (UploadTooLarge,
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
  const id = await queueImport({ upload, fileName: file.name.slice(0, 200), dryRun: true, choices: FIRST_CHOICES }, actor, createdBy);
  startImportSoon(jobQueue);
  return id;
}

/** What the screen says after "stopped:" of a file the importer could not read, and what to do. */
const BAD_FILE_FIX =
  "Export the site again in WordPress (Tools → Export → All content → Download Export File) and upload that file; do not open and save it in another program first.";
const GONE =
  "the uploaded export is no longer stored (an export is removed once imported, and a day after a dry run nobody imported). Upload the export again.";

/** Runs one claimed row to its end, a retry, or a stop with words. */
async function runClaimed(row: WordPressImport): Promise<void> {
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
    message: row.attempts > 1 ? `Starting again (attempt ${row.attempts} of ${MAX_ATTEMPTS})…` : "Starting…",
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
    log("warn", "wordpress import: run failed", { id: row.id, attempt: row.attempts, error: message });
    const what =
      error instanceof StorageUnavailable
        ? `the site's file storage did not answer (${message}). Check that the bucket or DATA_DIR is reachable (S3_ settings, disk space)`
        : `an error interrupted it (${message})`;
    if (row.attempts >= MAX_ATTEMPTS) {
      await failWordPressImport(
        row.id,
        `${what}; it was tried ${row.attempts} times. What was imported stays: press the button again (or upload the export again) and the rest is done.`,
      );
      return;
    }
    await retryWordPressImportLater(row.id, `${what}; it is tried again automatically.`, retryDelayMs(row.attempts));
  }
}

/**
 * The `wordpress-import` job: runs every run that may start now, oldest
 * first; returns how many ran. One run at a time on all instances (the
 * queue's `singleton` policy).
 */
export async function runWordPressImports(): Promise<{ runs: number }> {
  let runs = 0;
  for (let row = await claimNextWordPressImport(); row; row = await claimNextWordPressImport()) {
    await runClaimed(row);
    runs++;
  }
  return { runs };
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

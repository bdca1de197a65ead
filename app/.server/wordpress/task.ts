/**
 * The dashboard's WordPress import as background work: `runInBackground`
 * records a task (db/background-tasks.ts), answers at once with its id, and
 * runs the work on this instance (which holds the uploaded file), writing
 * its progress at most once a second; the screen reads the row from any
 * instance. A task whose progress has not moved for STALE_MS is shown as
 * interrupted (its instance stopped): the import is safe to run again, it
 * picks up what is not done yet.
 *
 * This is the one place that would move to the site's job queue (pg-boss,
 * under way on another branch) once the queue can run work on the instance
 * that holds the file, or once uploads go to the bucket.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Actor } from "../db/audit";
import { createTask, updateTask } from "../db/background-tasks";
import { sitePatterns } from "../http/route-table";
import type { ArticleCategory } from "~/lib/practice";
import type { CategoryTarget } from "~/lib/wordpress-import";
import { importWordPress } from "./import";
import { getEnv } from "../env";
import { log } from "../log";

export const STALE_MS = 2 * 60_000;

export type TaskProgress = { phase: string; done: number; total: number; message: string };

/** Starts `work` in the background under a new task of `kind`; returns the task's id. */
export async function runInBackground(
  kind: string,
  input: Record<string, unknown>,
  createdBy: string,
  work: (progress: (p: TaskProgress) => void) => Promise<Record<string, unknown>>,
): Promise<number> {
  const task = await createTask(kind, input, createdBy);
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  const progress = (p: TaskProgress) => {
    if (Date.now() - last < 1000) return;
    last = Date.now();
    pending = updateTask(task.id, { progress: { ...p, at: new Date().toISOString() } }).catch(() => {});
  };
  void (async () => {
    await updateTask(task.id, {
      status: "running",
      started_at: new Date(),
      progress: { phase: "starting", done: 0, total: 0, message: "Starting…", at: new Date().toISOString() },
    });
    try {
      const result = await work(progress);
      await pending;
      await updateTask(task.id, {
        status: "done",
        result,
        finished_at: new Date(),
        progress: { phase: "done", done: 1, total: 1, message: "Done.", at: new Date().toISOString() },
      });
    } catch (error) {
      await pending;
      log("warn", "background task failed", { kind, id: task.id, error: (error as Error).message });
      await updateTask(task.id, { status: "failed", error: (error as Error).message.slice(0, 1000), finished_at: new Date() }).catch(
        () => {},
      );
    }
  })();
  return task.id;
}

/** Where uploaded exports wait for their import (DATA_DIR/imports), one file per upload. */
export function uploadPath(name: string): string {
  if (!/^[0-9a-f-]{36}\.xml$/.test(name)) throw new Error("Not an upload name.");
  return path.join(getEnv().dataDir, "imports", name);
}

/** Writes an upload's bytes (a stream) to DATA_DIR/imports, refusing more than `maxBytes`; returns its name. */
/** The import screens' answer when the database cannot start the task. */
export const IMPORT_FAILED = "An error occurred while starting the import. Please try again.";

/** The upload went over its cap (the file is removed). */
export class UploadTooLarge extends Error {}

export async function saveUpload(stream: ReadableStream<Uint8Array>, name: string, maxBytes: number): Promise<number> {
  const file = uploadPath(name);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.open(file, "w");
  let size = 0;
  try {
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new UploadTooLarge(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
      await handle.write(chunk);
    }
  } catch (error) {
    await handle.close();
    await fs.rm(file, { force: true });
    throw error;
  }
  await handle.close();
  return size;
}

/** What the import screen asks for: an uploaded export and the choices made on its dry run's report. */
export type ImportTaskInput = {
  upload: string;
  fileName: string;
  dryRun: boolean;
  pages: "articles" | "skip";
  defaultCategory: ArticleCategory;
  categoryMap: Record<string, CategoryTarget>;
};

export const IMPORT_TASK = "wordpress-import";

/** A dry run or an import of an uploaded export, in the background; the export is removed once imported. */
export function startImportTask(input: ImportTaskInput, createdBy: string, actor: Actor): Promise<number> {
  return runInBackground(IMPORT_TASK, input, createdBy, async (progress) => {
    const report = await importWordPress({
      file: uploadPath(input.upload),
      dryRun: input.dryRun,
      pages: input.pages,
      defaultCategory: input.defaultCategory,
      categoryMap: input.categoryMap,
      actor,
      sitePatterns: sitePatterns(),
      progress,
    });
    if (!input.dryRun) await fs.rm(uploadPath(input.upload), { force: true });
    return report;
  });
}

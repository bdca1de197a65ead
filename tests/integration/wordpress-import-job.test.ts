/**
 * The dashboard's WordPress dry runs and imports as the job queue's
 * `wordpress-import` job (issues 44 and 46; app/.server/wordpress/task.ts),
 * on PGlite (or PostgreSQL with TEST_DATABASE_URL), with the export in the
 * site's storage: the disk, then a real S3-compatible bucket (s3rver) with an
 * export larger than one multipart part. The upload is streamed into storage
 * and queued; the job (through pg-boss, as a worker runs it) reads it back as
 * a stream, writes progress and the report; an import removes the stored
 * export; a run whose instance stopped is started again; a file that is not
 * an export, a removed export and a storage that does not answer stop with
 * words naming the problem and the fix; the sweep removes exports no longer
 * needed.
 */
import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { articles, wordpressImports } from "~/.server/db/schema";
import { seedDemoContent } from "~/.server/db/seed";
import { getWordPressImport, queueWordPressImport } from "~/.server/db/wordpress-imports";
import { setJobQueueForTests } from "~/.server/http/startup";
import { siteJobs } from "~/.server/jobs/jobs";
import { createJobQueue, QUEUE_SCHEMA, type JobQueue, type RunOutcome } from "~/.server/jobs/queue";
import { MAX_ATTEMPTS } from "~/.server/jobs/retry";
import { getStorage, setStorage, type Storage } from "~/.server/storage/storage";
import { PART_BYTES, s3Storage } from "~/.server/storage/storage-s3";
import {
  EXPORT_KEEP_MS,
  FIRST_CHOICES,
  newUploadKey,
  queueImport,
  saveUpload,
  sweepStoredExports,
  UploadTooLarge,
  WORDPRESS_IMPORT_JOB,
} from "~/.server/wordpress/task";
import { setUpTestDatabase, TEST_ACTOR } from "../support/database";
import { startS3, type TestBucket } from "../support/s3";
import { startOldSite, wxrFixture, type OldSite } from "../support/wordpress-fixture";

const state = setUpTestDatabase();
let site: OldSite;
let queue: JobQueue;
let disk: Storage;

/** A stream of `text` in chunks of 64 KB, as a request's body arrives. */
function body(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.byteLength) return c.close();
      c.enqueue(bytes.subarray(at, at + 65_536));
      at += 65_536;
    },
  });
}

async function upload(text: string, now = Date.now()): Promise<string> {
  const key = newUploadKey(now);
  await saveUpload(body(text), key, 100 * 1024 * 1024);
  return key;
}

const dryRun = (key: string, fileName = "old-firm.xml") =>
  queueImport({ upload: key, fileName, dryRun: true, choices: FIRST_CHOICES }, TEST_ACTOR, "owner@example.com", queue);

/** Runs the next due job of the queue through pg-boss (as a worker would) and answers run `id`'s row. */
async function runJob(id: number, outcome: RunOutcome = "ran") {
  expect(await queue.runNow(WORDPRESS_IMPORT_JOB)).toBe(outcome);
  return (await getWordPressImport(id))!;
}

/** Run `id`'s jobs in pg-boss, oldest first. */
const jobsOf = (id: number) => queue.boss.findJobs(WORDPRESS_IMPORT_JOB, { data: { id } });

/** The jobs waiting for their next try (pg-boss's retry delay, 30 s and more), made due now. */
async function makeRetriesDue() {
  await db().execute(
    sql.raw(`update ${QUEUE_SCHEMA}.job set start_after = now() where name = '${WORDPRESS_IMPORT_JOB}' and state in ('created', 'retry')`),
  );
}

const stored = async (key: string) => (await getStorage().list("imports")).includes(key);

beforeAll(async () => {
  await seedDemoContent();
  site = await startOldSite();
  disk = getStorage();
  queue = createJobQueue(
    state.database,
    siteJobs(state.database).filter((j) => j.name.startsWith("wordpress-")),
  );
  await queue.start({ work: false, catchUp: false });
  setJobQueueForTests(queue);
}, 120_000);

afterAll(async () => {
  setJobQueueForTests(undefined);
  await queue?.stop();
  await site?.close();
});

describe("WordPress import as a job of the job queue", () => {
  it("a dry run queued from a streamed upload runs as the job: progress, then its report; nothing written; the export kept for the import", async () => {
    const key = await upload(wxrFixture(site.origin));
    expect(fs.existsSync(`${state.dataDir}/uploads/${key}`)).toBe(true);
    const id = await dryRun(key);
    const queued = (await getWordPressImport(id))!;
    expect([queued.status, (queued.progress as { message: string }).message]).toEqual(["queued", "Waiting to start…"]);
    // Its job was written with the row: one job, waiting.
    expect((await jobsOf(id)).map((j) => j.state)).toEqual(["created"]);
    const before = (await db().select().from(articles)).length;
    const done = await runJob(id);
    expect(done.status).toBe("done");
    expect((await jobsOf(id)).map((j) => [j.state, j.retryCount])).toEqual([["completed", 0]]);
    expect((done.progress as { message: string }).message).toBe("Done.");
    const report = done.report as { dryRun: boolean; counts: { posts: number; created: number } };
    expect(report.dryRun).toBe(true);
    expect(report.counts.posts).toBeGreaterThan(0);
    expect(report.counts.created).toBeGreaterThan(0);
    expect((await db().select().from(articles)).length).toBe(before);
    expect(await stored(key)).toBe(true);
  }, 120_000);

  it("the import of that export runs as the job, writes the articles, and removes the stored export", async () => {
    const key = await upload(wxrFixture(site.origin));
    const dry = await runJob(await dryRun(key));
    expect(dry.status).toBe("done");
    const id = await queueImport(
      { upload: key, fileName: "old-firm.xml", dryRun: false, choices: { ...FIRST_CHOICES, categoryMap: { miscellany: "construction" } } },
      TEST_ACTOR,
      "owner@example.com",
      queue,
    );
    const done = await runJob(id);
    expect(done.status).toBe("done");
    expect((done.report as { counts: { created: number } }).counts.created).toBeGreaterThan(0);
    expect(await db().select().from(articles).where(eq(articles.slug, "Coverage-after-the-flood"))).toHaveLength(1);
    expect(await stored(key)).toBe(false);
    expect((await getWordPressImport(dry.id))!.upload).toBeNull();
    expect(done.upload).toBeNull();
  }, 180_000);

  it("a run whose instance stopped (its heartbeat lost) is tried again by pg-boss and finishes", async () => {
    const key = await upload(wxrFixture(site.origin));
    const id = await dryRun(key);
    // An instance took the job and started the run, then stopped: nothing settles the job, its heartbeat stops.
    const [taken] = await queue.boss.fetch(WORDPRESS_IMPORT_JOB);
    expect(taken.data).toEqual({ id });
    await db().update(wordpressImports).set({ status: "running", started_at: new Date() }).where(eq(wordpressImports.id, id));
    await db().execute(sql.raw(`update ${QUEUE_SCHEMA}.job set heartbeat_on = now() - interval '1 hour' where id = '${taken.id}'`));
    // pg-boss's supervision fails it (it looks at a queue at most once a monitor interval, 10 s, and the
    // background supervision may have just looked).
    await expect
      .poll(
        async () => {
          await queue.boss.supervise(WORDPRESS_IMPORT_JOB);
          return (await jobsOf(id)).map((j) => j.state);
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toEqual(["retry"]);
    await makeRetriesDue();
    const done = await runJob(id);
    expect(done.status).toBe("done");
    expect((await jobsOf(id)).map((j) => [j.state, j.retryCount])).toEqual([["completed", 1]]);
  }, 120_000);

  it("one run at a time on all instances: a second run's job waits while the first's is active", async () => {
    const first = await dryRun(await upload(wxrFixture(site.origin)));
    const second = await dryRun(await upload(wxrFixture(site.origin)));
    // Another instance runs the first (its job active).
    const [taken] = await queue.boss.fetch(WORDPRESS_IMPORT_JOB);
    expect(taken.data).toEqual({ id: first });
    expect(await queue.runNow(WORDPRESS_IMPORT_JOB)).toBe("skipped");
    expect((await getWordPressImport(second))!.status).toBe("queued");
    await queue.boss.complete(WORDPRESS_IMPORT_JOB, taken.id);
    expect((await runJob(second)).status).toBe("done");
    // The first's job was settled by hand, its row still queued: a job sent for it again runs it.
    await queue.boss.send(WORDPRESS_IMPORT_JOB, { id: first });
    expect((await runJob(first)).status).toBe("done");
  }, 120_000);

  it("a run queued without a job (by an earlier version) gets one from the sweep, and runs", async () => {
    const key = await upload(wxrFixture(site.origin));
    const id = await db().transaction((tx) =>
      queueWordPressImport(tx, {
        dryRun: true,
        fileName: "old-firm.xml",
        upload: key,
        choices: { ...FIRST_CHOICES, actor: TEST_ACTOR },
        createdBy: "",
      }),
    );
    expect(await jobsOf(id)).toEqual([]);
    expect(await queue.runNow("wordpress-exports-sweep")).toBe("ran");
    expect((await jobsOf(id)).map((j) => j.state)).toEqual(["created"]);
    // Its job is kept once: a second sweep sends none.
    expect(await queue.runNow("wordpress-exports-sweep")).toBe("ran");
    expect(await jobsOf(id)).toHaveLength(1);
    expect((await runJob(id)).status).toBe("done");
  }, 120_000);

  it("a file that is not an export stops at once with the problem and the fix in words", async () => {
    const id = await dryRun(await upload("<html><body>hello</body></html>"), "page.html");
    const failed = await runJob(id);
    expect(failed.status).toBe("failed");
    // No second try: the job completed, nothing on Failed jobs.
    expect((await jobsOf(id)).map((j) => [j.state, j.retryCount])).toEqual([["completed", 0]]);
    expect(failed.error).toMatch(/not a WordPress export.*Export the site again in WordPress \(Tools → Export → All content/);
  }, 60_000);

  it("an export no longer stored stops with words saying to upload it again", async () => {
    const failed = await runJob(await dryRun(newUploadKey()));
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/no longer stored.*Upload the export again/);
  }, 60_000);

  it("a storage that does not answer is tried again by pg-boss with its backoff; after the last try the run stops with words and is on Failed jobs, whose Try again runs it", async () => {
    const key = await upload(wxrFixture(site.origin));
    const id = await dryRun(key);
    // A bucket nothing answers at (connection refused).
    setStorage(
      s3Storage({
        bucket: "nowhere",
        endpoint: "http://127.0.0.1:9",
        accessKeyId: "x",
        secretAccessKey: "x",
        forcePathStyle: true,
        maxAttempts: 1,
      }),
    );
    try {
      const waiting = await runJob(id, "failed");
      expect(waiting.status).toBe("queued");
      expect(waiting.error).toMatch(/file storage did not answer.*tried again automatically/);
      // pg-boss's backoff: the next try 30 s or more later.
      const [retry] = await jobsOf(id);
      expect([retry.state, retry.retryCount]).toEqual(["retry", 0]);
      expect(retry.startAfter.getTime()).toBeGreaterThan(Date.now() + 25_000);
      for (let tried = 2; tried < MAX_ATTEMPTS; tried++) {
        await makeRetriesDue();
        const again = await runJob(id, "failed");
        expect([again.status, (again.progress as { message: string }).message]).toEqual([
          "queued",
          `Starting again (attempt ${tried} of ${MAX_ATTEMPTS})…`,
        ]);
      }
      await makeRetriesDue();
      const failed = await runJob(id, "failed");
      expect(failed.status).toBe("failed");
      expect(failed.error).toMatch(
        new RegExp(
          `file storage did not answer.*Check that the bucket or DATA_DIR is reachable.*it was tried ${MAX_ATTEMPTS} times\\. What was imported stays: press the button again`,
        ),
      );
      expect((await jobsOf(id)).map((j) => [j.state, j.retryCount])).toEqual([["failed", MAX_ATTEMPTS - 1]]);
      // No more tries: nothing due.
      await makeRetriesDue();
      expect(await queue.runNow(WORDPRESS_IMPORT_JOB)).toBe("skipped");
      // On Failed jobs, in words: which run, how many tries, the error.
      const letter = (await queue.failedJobs()).find((f) => f.job === "WordPress import");
      expect(letter).toMatchObject({
        detail: `Dry run of old-firm.xml (run ${id}, started by owner@example.com)`,
        attempts: MAX_ATTEMPTS,
        error: expect.stringMatching(/file storage did not answer/),
      });
      // The storage back, Try again on Failed jobs runs the run again, to its end.
      setStorage(disk);
      expect(await queue.retryFailedJob(letter!.id)).toMatchObject({ outcome: "queued", label: "WordPress import" });
      const done = await runJob(id);
      expect([done.status, done.error]).toEqual(["done", null]);
      expect((await queue.failedJobs()).filter((f) => f.job === "WordPress import")).toEqual([]);
    } finally {
      setStorage(disk);
    }
  }, 120_000);

  it("the sweep removes exports no longer needed: a dry run's a day after it ended, one no run names; keeps the rest", async () => {
    const old = Date.now() - EXPORT_KEEP_MS - 60_000;
    const stale = await upload(wxrFixture(site.origin), old);
    const staleRun = await dryRun(stale);
    await db()
      .update(wordpressImports)
      .set({ status: "done", finished_at: new Date(old) })
      .where(eq(wordpressImports.id, staleRun));
    const orphan = await upload("<rss/>", old);
    const waiting = await upload(wxrFixture(site.origin), old);
    await dryRun(waiting); // queued: kept however old
    const fresh = await upload("<rss/>");
    const { exportsRemoved } = await sweepStoredExports();
    expect(exportsRemoved).toBeGreaterThanOrEqual(2);
    expect([await stored(stale), await stored(orphan), await stored(waiting), await stored(fresh)]).toEqual([false, false, true, true]);
    expect((await getWordPressImport(staleRun))!.upload).toBeNull();
    // What is left waiting is run here (one job a run), so the next tests start with none.
    while ((await queue.runNow(WORDPRESS_IMPORT_JOB)) !== "skipped");
    expect(await db().select().from(wordpressImports).where(eq(wordpressImports.status, "queued"))).toEqual([]);
  }, 120_000);

  it("an upload over its cap keeps nothing", async () => {
    const key = newUploadKey();
    await expect(saveUpload(body("<".repeat(1200)), key, 1000)).rejects.toBeInstanceOf(UploadTooLarge);
    expect(await stored(key)).toBe(false);
    expect(fs.readdirSync(`${state.dataDir}/uploads/imports`).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("WordPress import as a job, with the export in an S3-compatible bucket", () => {
  let bucket: TestBucket;
  beforeAll(async () => {
    bucket = await startS3({ bucket: "site-files" });
    setStorage(bucket.storage());
  }, 60_000);
  afterAll(async () => {
    setStorage(disk);
    await bucket?.stop();
  });

  it("an export larger than one part goes up in parts, is read back in ranges by the job, imported, then removed from the bucket", async () => {
    // The fixture with a comment that makes it larger than one multipart part (8 MB).
    const text = wxrFixture(site.origin).replace("<channel>", `<channel><!-- ${"padding ".repeat(PART_BYTES / 8 + 1000)} -->`);
    expect(text.length).toBeGreaterThan(PART_BYTES);
    const key = await upload(text);
    expect(await stored(key)).toBe(true);
    const dry = await runJob(await dryRun(key));
    expect([dry.status, dry.error]).toEqual(["done", null]);
    const id = await queueImport(
      { upload: key, fileName: "old-firm.xml", dryRun: false, choices: FIRST_CHOICES },
      TEST_ACTOR,
      "owner@example.com",
      queue,
    );
    const done = await runJob(id);
    expect([done.status, done.error]).toEqual(["done", null]);
    expect((done.report as { counts: { posts: number } }).counts.posts).toBe((dry.report as { counts: { posts: number } }).counts.posts);
    expect(await stored(key)).toBe(false);
  }, 180_000);

  it("an upload over its cap leaves nothing in the bucket", async () => {
    const key = newUploadKey();
    await expect(saveUpload(body("<".repeat(PART_BYTES + 10)), key, PART_BYTES + 5)).rejects.toBeInstanceOf(UploadTooLarge);
    expect(await stored(key)).toBe(false);
  }, 60_000);
});

/**
 * Pictures in an S3-compatible bucket (a real s3rver started here): saves
 * write the picture before its row, a width made by one instance is found by
 * another, a bucket that does not answer gives the form a clear message and
 * keeps what was typed, PICTURE_BASE_URL makes every width up front, the
 * sweep works on a paged bucket listing, and export/import read and write
 * buckets.
 */
import { callRoute, TEST_ROUTE_CONTEXT } from "../support/route-call";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportBackup, importBackup } from "~/.server/content/backup";
import { getDatabase, setDatabase } from "~/.server/db/client";
import * as teamDb from "~/.server/db/team";
import { getEnv, setEnvForTests } from "~/.server/env";
import { completePictureWidths, getImageVariant, saveImage } from "~/.server/pictures/images";
import { createPictureSweeper, findOrphanPictures, rowPictures } from "~/.server/pictures/picture-sweep";
import { setStorage, type Storage } from "~/.server/storage/storage";
import { MSG } from "~/lib/forms/messages";
import { uploadKeys } from "~/lib/images";
import * as lawyerEdit from "~/routes/admin/lawyer-edit";
import * as lawyerNew from "~/routes/admin/lawyer-new";
import * as bioPdf from "~/routes/public/bio-pdf";
import { createTestDatabase, TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { memberFormData, memberWithPicture } from "../support/team";
import { startS3, type TestBucket } from "../support/s3";
import { signedIn } from "../support/staff-session";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
let cookie = "";
let jpeg: Buffer;
let bucket: TestBucket;
let storage: Storage;

beforeAll(async () => {
  bucket = await startS3({ bucket: "site-pictures" });
  storage = bucket.storage();
  setStorage(storage);
  cookie = await signedIn("bucket@example.com", "owner", "10.9.0.2");
  jpeg = await sharp({ create: { width: 300, height: 375, channels: 3, background: "#3a5f8a" } })
    .jpeg()
    .toBuffer();
});

afterAll(async () => {
  await bucket?.stop();
});

function post(p: string, body: FormData) {
  return new Request(`${ORIGIN}${p}`, { method: "POST", body, headers: { cookie, origin: ORIGIN } });
}

/** Grace Hopper's form: a cyber Partner; `fields` changes any field. */
const memberForm = (fields: Record<string, string>, photo?: Buffer) =>
  memberFormData({ full_name: "Grace Hopper", email: "grace@example.com", extension: "202", ...fields }, { photo });

describe("pictures in a bucket", () => {
  it("a save writes the picture and its widths to the bucket before the row that names it", async () => {
    const puts: { key: string; rowsAtWrite: number }[] = [];
    setStorage({
      ...storage,
      async put(key, bytes) {
        await storage.put(key, bytes);
        puts.push({ key, rowsAtWrite: await teamDb.countTeam() });
      },
    });
    const created = await callRoute(lawyerNew.action, post("/dashboard/lawyers/new", memberForm({}, jpeg)));
    setStorage(storage);
    expect(created).toMatchObject({ status: 302, location: "/dashboard/lawyers/new" });
    const row = await teamDb.getTeamMemberBySlug("Grace-Hopper");
    expect(row?.img).toMatch(/\.jpg$/);
    const keys = uploadKeys("team", row!.img);
    expect(puts.map((p) => p.key).sort()).toEqual([...keys].sort());
    // Every file was in the bucket while no row named it yet.
    expect(puts.every((p) => p.rowsAtWrite === 0)).toBe(true);
    const inBucket = await bucket.storage().list("team");
    for (const key of keys) expect(inBucket).toContain(key);
  });

  it("a width one instance makes on request is found by another instance", async () => {
    const row = await teamDb.getTeamMemberBySlug("Grace-Hopper");
    const key = `team/${row!.img.replace(/\.jpg$/, "")}-640.avif`;
    const otherInstance = bucket.storage();
    expect(await otherInstance.get(key)).toBeUndefined();
    const made = await getImageVariant(key);
    expect(made && (await sharp(made).metadata()).format).toBe("heif");
    const found = await otherInstance.get(key);
    expect(found && Buffer.compare(found, made!)).toBe(0);
  });

  it("a PDF bio is kept in the bucket, found there by another instance, with its portrait", async () => {
    const row = (await teamDb.getTeamMemberBySlug("Grace-Hopper"))!;
    const first = await bioPdf.loader({
      params: { slug: row.slug },
      request: new Request(`${ORIGIN}/lawyer/${row.slug}/bio.pdf`),
      context: TEST_ROUTE_CONTEXT,
    } as never);
    expect(first.status).toBe(200);
    const bytes = Buffer.from(await first.arrayBuffer());
    const otherInstance = bucket.storage();
    const keys = (await otherInstance.list("bios")).filter((k) => k.startsWith(`bios/${row.id}-`));
    expect(keys).toHaveLength(1);
    expect(Buffer.compare((await otherInstance.get(keys[0]))!, bytes)).toBe(0);
    expect(await otherInstance.get(`og/bio-photo-${row.img.replace(/\.jpg$/, "")}.jpg`)).toBeDefined();
  });

  it("a bucket that does not answer: the form says so (503), keeps what was typed, saves nothing; a save without a picture still works", async () => {
    const impatient = bucket.storage({ maxAttempts: 1, requestTimeoutMs: 1000, deadlineMs: 3000 });
    setStorage(impatient);
    const before = await teamDb.countTeam();
    bucket.pause();
    try {
      const result = await callRoute(
        lawyerNew.action,
        post("/dashboard/lawyers/new", memberForm({ full_name: "Offline Upload", desc: "A long bio typed by hand" }, jpeg)),
      );
      expect(result.status).toBe(503);
      const data = result.data as { status: { text: string }; errors: Record<string, string>; values: Record<string, unknown> };
      expect(data.status.text).toBe(MSG.imageUploadError);
      expect(data.errors.photo).toContain(MSG.pictureStoreDown);
      expect(data.errors.photo).toContain(MSG.chooseImageAgain);
      expect(data.values).toMatchObject({ full_name: "Offline Upload", desc: "A long bio typed by hand", email: "grace@example.com" });
      expect(await teamDb.countTeam()).toBe(before);

      const textOnly = await callRoute(lawyerEdit.action, post("/dashboard/lawyer/Grace-Hopper", memberForm({ title: "Senior Partner" })), {
        slug: "Grace-Hopper",
      });
      expect(textOnly.status).toBe(302);
      expect((await teamDb.getTeamMemberBySlug("Grace-Hopper"))?.title).toBe("Senior Partner");
    } finally {
      bucket.resume();
      setStorage(storage);
    }
  });

  it("with PICTURE_BASE_URL every width (WebP and AVIF) is in the bucket when the save returns, and older pictures get theirs", async () => {
    const env = getEnv();
    const older = await saveImage("articles", jpeg); // stored before PICTURE_BASE_URL: WebP widths only
    await teamDb.createTeamMember(memberWithPicture("Placeholder", ""), TEST_ACTOR); // rows without a picture are skipped
    const { createArticle } = await import("~/.server/db/articles");
    await createArticle(
      {
        title: "Older picture",
        img: older,
        category: "cyber",
        news: false,
        priority: false,
        copy: "<p>x</p>",
        date: "Monday, January 5, 2026",
      },
      TEST_ACTOR,
    );
    setEnvForTests({
      DATA_DIR: env.DATA_DIR,
      DATABASE_URL: "",
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      PICTURE_BASE_URL: `${bucket.endpoint}/${bucket.bucket}`,
    });
    try {
      expect(getEnv().pictureBase).toBe(`${bucket.endpoint}/${bucket.bucket}`);
      const fresh = await saveImage("team", jpeg);
      const stem = fresh.replace(/\.jpg$/, "");
      const listed = await storage.list("team");
      for (const key of [
        `team/${fresh}`,
        `team/${stem}-320.webp`,
        `team/${stem}-640.webp`,
        `team/${stem}-320.avif`,
        `team/${stem}-640.avif`,
      ]) {
        expect(listed).toContain(key);
        // Served by the bucket itself, as a browser would fetch it through PICTURE_BASE_URL.
        const direct = await fetch(`${getEnv().pictureBase}/${key}`);
        expect(direct.status).toBe(200);
        expect(direct.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      }
      const olderStem = older.replace(/\.jpg$/, "");
      expect(await storage.list("articles")).not.toContain(`articles/${olderStem}-480.avif`);
      expect(await completePictureWidths(rowPictures)).toBeGreaterThanOrEqual(2);
      const articles = await storage.list("articles");
      expect(articles).toContain(`articles/${olderStem}-480.avif`);
      expect(articles).toContain(`articles/${olderStem}-960.avif`);
      expect(await completePictureWidths(rowPictures)).toBe(0);
    } finally {
      setEnvForTests({ DATA_DIR: env.DATA_DIR, DATABASE_URL: "", NODE_ENV: "test", LOG_LEVEL: "silent", PICTURE_BASE_URL: "" });
    }
  });

  it("the sweep removes pictures no row uses from the bucket, reading the listing page by page", async () => {
    const paged = bucket.storage({ pageSize: 2 });
    setStorage(paged);
    try {
      const orphan = await saveImage("team", jpeg);
      const orphanKeys = uploadKeys("team", orphan);
      // (Earlier tests left some too: the upload the frozen bucket took in after the form gave up.)
      const orphans = await findOrphanPictures();
      for (const key of orphanKeys) expect(orphans).toContain(key);
      const before = [...(await paged.list("team")), ...(await paged.list("articles"))];
      expect(before.length).toBeGreaterThan(orphans.length + 2);
      const sweeper = createPictureSweeper();
      expect((await sweeper.sweep()).removed).toEqual([]);
      const second = await sweeper.sweep();
      expect(second.removed.sort()).toEqual([...orphans].sort());
      const after = [...(await paged.list("team")), ...(await paged.list("articles"))];
      expect(after.sort()).toEqual(before.filter((k) => !orphans.includes(k)).sort());
      expect(await findOrphanPictures()).toEqual([]);
    } finally {
      setStorage(storage);
    }
  });

  it("export reads every picture from the bucket; import writes them into another bucket, byte for byte", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bucket-backup-"));
    const file = path.join(dir, "site.jsonl.gz");
    const second = await startS3({ bucket: "restored-pictures" });
    const original = getDatabase();
    const fresh = await createTestDatabase();
    try {
      const exported = await exportBackup(file);
      const source = [...(await storage.list("team")), ...(await storage.list("articles"))].sort();
      expect(exported.pictures).toBe(source.length);
      expect(exported.missingPictures).toEqual([]);

      setDatabase(fresh.database);
      const target = second.storage();
      setStorage(target);
      const imported = await importBackup(file);
      expect(imported.pictures).toBe(source.length);
      const restored = [...(await target.list("team")), ...(await target.list("articles"))].sort();
      expect(restored).toEqual(source);
      for (const key of source) expect(Buffer.compare((await target.get(key))!, (await storage.get(key))!)).toBe(0);
      expect((await teamDb.getTeamMemberBySlug("Grace-Hopper"))?.title).toBe("Senior Partner");
    } finally {
      setDatabase(original);
      setStorage(storage);
      await fresh.drop();
      await second.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

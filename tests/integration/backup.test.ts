/**
 * Backups: `exportBackup` of the demo content, then `importBackup` into a
 * second fresh database and a second storage folder, gives back every row
 * (all columns, ids, timestamps to the microsecond) and every picture byte
 * for byte; new rows after the import do not collide; an import into a
 * database with content, or of a damaged archive, is refused with nothing kept.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { BACKUP_TABLES, BackupError, exportBackup, importBackup, type BackupTable } from "~/.server/content/backup";
import { db, setDatabase, type Database } from "~/.server/db/client";
import { seedDemoContent } from "~/.server/db/seed";
import { updateArticle } from "~/.server/db/articles";
import { articles } from "~/.server/db/schema";
import { saveImage } from "~/.server/pictures/images";
import sharp from "sharp";
import { createTeamMember } from "~/.server/db/team";
import { diskStorage, IMAGE_FOLDERS, setStorage, type Storage } from "~/.server/storage/storage";
import { createTestDatabase, TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { memberInput } from "../support/team";

const source = setUpTestDatabase();
const tables = Object.keys(BACKUP_TABLES) as BackupTable[];

let target: { database: Database; drop(): Promise<void> } | undefined;
let work: string;
let sourceStorage: Storage;
let targetStorage: Storage;
let archive: string;

/** Every row of every content table, exactly as PostgreSQL holds it. */
async function snapshot(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    // article_authors has no id: its rows in a stable order of their own.
    const order = sql.raw(table === "article_authors" ? "t.article_id, t.member_id" : "t.id");
    const result = await db().execute(sql`select to_jsonb(t)::text as row from ${sql.identifier(table)} t order by ${order}`);
    out[table] = (result as { rows: { row: string }[] }).rows.map((r) => r.row);
  }
  return out;
}

async function pictures(storage: Storage): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const folder of IMAGE_FOLDERS) for (const key of await storage.list(folder)) out.set(key, (await storage.get(key))!);
  return out;
}

function useSource() {
  setDatabase(source.database);
  setStorage(sourceStorage);
}
function useTarget() {
  setDatabase(target!.database);
  setStorage(targetStorage);
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "firm-backup-"));
  sourceStorage = diskStorage(path.join(source.dataDir, "uploads"));
  targetStorage = diskStorage(path.join(work, "restored-uploads"));
  useSource();
  await seedDemoContent();
  // An article with a summary, SEO texts and a social picture (stored beside its picture).
  const [first] = await db().select().from(articles).orderBy(articles.id).limit(1);
  const socialImg = await saveImage(
    "articles",
    await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#345" } })
      .jpeg()
      .toBuffer(),
  );
  await updateArticle(
    first.id,
    { ...first, summary: "A summary.", seo_title: "SEO title", seo_description: "SEO description.", social_img: socialImg },
    TEST_ACTOR,
  );
  await createStaffAccount("staff@example.com", "a-long-enough-password");
  target = await createTestDatabase();
  archive = path.join(work, "site.jsonl.gz");
});

afterAll(async () => {
  useSource();
  await target?.drop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("export and import", () => {
  it("round-trips every content row and every picture byte for byte, without staff accounts", async () => {
    useSource();
    const before = await snapshot();
    const beforePictures = await pictures(sourceStorage);
    expect(before.team.length).toBeGreaterThan(3);
    expect(before.articles.length).toBeGreaterThan(3);
    expect(before.headers.length).toBeGreaterThan(0);
    expect(before.hours.length).toBeGreaterThan(0);
    // The demo's insights name their authors.
    expect(before.article_authors.length).toBeGreaterThan(3);
    expect(before.articles.some((r) => /"social_img": "[^"]+"/.test(r as string))).toBe(true);
    // The lawyers' credentials (issue 33) are in the rows compared after the import.
    expect(before.team.some((r) => /"admissions": \[\{"year": 2003, "jurisdiction": "Ontario"\}\]/.test(r as string))).toBe(true);
    expect(before.team.some((r) => /"specialist_area": "Civil Litigation"/.test(r as string))).toBe(true);
    expect(before.team.some((r) => /"matters": "<ul><li>/.test(r as string))).toBe(true);
    expect(beforePictures.size).toBeGreaterThan(10);

    const messages: string[] = [];
    const exported = await exportBackup(archive, { progress: (m) => messages.push(m) });
    expect(exported.pictures).toBe(beforePictures.size);
    expect(exported.missingPictures).toEqual([]);
    expect(messages.some((m) => /Exported \d+\/\d+ pictures/.test(m))).toBe(true);
    expect(fs.statSync(archive).size).toBeGreaterThan(1000);
    // No password hash or staff e-mail travels in the archive.
    const text = zlib.gunzipSync(fs.readFileSync(archive)).toString("utf8");
    // (The audit trail travels too, and names the staff account's creation: only its entries may hold the e-mail.)
    expect(
      text
        .split("\n")
        .filter((line) => !line.includes('"table":"audit_log"'))
        .join("\n"),
    ).not.toContain("staff@example.com");
    expect(text).not.toMatch(/scrypt|\$2[aby]\$/);

    useTarget();
    const imported = await importBackup(archive, { progress: () => {} });
    expect(imported.pictures).toBe(beforePictures.size);
    expect(await snapshot()).toEqual(before);
    const after = await pictures(targetStorage);
    expect([...after.keys()].sort()).toEqual([...beforePictures.keys()].sort());
    for (const [key, bytes] of beforePictures) expect(Buffer.compare(after.get(key)!, bytes), key).toBe(0);

    const staff = await db().execute(sql`select count(*)::int as n from "user"`);
    expect((staff as { rows: { n: number }[] }).rows[0].n).toBe(0);

    // Sequences were moved past the restored ids: a new member gets a fresh id.
    const maxId = Math.max(...before.team.map((r) => (JSON.parse(r as string) as { id: number }).id));
    const created = await createTeamMember(
      memberInput("After Import", { title: "Associate", email: "after@example.com", extension: 150, desc: "", AOP: [] }),
      TEST_ACTOR,
    );
    expect(created.id).toBeGreaterThan(maxId);
  });

  it("carries the audit trail (same entries, same order) and records the export and the import themselves", async () => {
    useSource();
    const trail = async () => {
      const result = await db().execute(
        sql`select actor_label, action, item_type, item_id, item_label, changes, at from audit_log order by id`,
      );
      return (result as { rows: Record<string, unknown>[] }).rows.map((r) => JSON.stringify(r));
    };
    const sourceTrail = await trail();
    expect(sourceTrail.length).toBeGreaterThan(3);
    // The export made above is itself in the source's trail, last.
    expect(JSON.parse(sourceTrail.at(-1)!)).toMatchObject({
      action: "export",
      item_type: "site",
      item_label: "site.jsonl.gz",
      actor_label: "npm run export",
    });
    useTarget();
    const targetTrail = await trail();
    // Everything exported (all but the export entry, written after the archive) came back in order, then the import entry.
    expect(targetTrail.slice(0, sourceTrail.length - 1)).toEqual(sourceTrail.slice(0, -1));
    expect(JSON.parse(targetTrail[sourceTrail.length - 1])).toMatchObject({
      action: "import",
      item_type: "site",
      actor_label: "npm run import",
    });
    // (then the member the first test created after the import)
    expect(JSON.parse(targetTrail[sourceTrail.length])).toMatchObject({ action: "create", item_label: "After Import" });
  });

  it("refuses to import into a database that has content, and changes nothing", async () => {
    useTarget();
    const before = await snapshot();
    const picturesBefore = (await pictures(targetStorage)).size;
    await expect(importBackup(archive)).rejects.toThrow(/already has content.*empty database only/);
    expect(await snapshot()).toEqual(before);
    expect((await pictures(targetStorage)).size).toBe(picturesBefore);
  });

  it("refuses a truncated or tampered archive and keeps nothing of it", async () => {
    const empty = await createTestDatabase();
    const emptyStorage = diskStorage(path.join(work, "empty-uploads"));
    try {
      setDatabase(empty.database);
      setStorage(emptyStorage);
      const whole = zlib.gunzipSync(fs.readFileSync(archive)).toString("utf8").split("\n");

      // Cut before the end marker (as a full disk or an interrupted copy would).
      const truncated = path.join(work, "truncated.jsonl.gz");
      fs.writeFileSync(truncated, zlib.gzipSync(whole.slice(0, Math.floor(whole.length * 0.7)).join("\n")));
      await expect(importBackup(truncated)).rejects.toThrow(/truncated|incomplete/);

      // Bytes cut in the middle of the gzip stream.
      const cut = path.join(work, "cut.jsonl.gz");
      const gz = fs.readFileSync(archive);
      fs.writeFileSync(cut, gz.subarray(0, Math.floor(gz.length / 2)));
      await expect(importBackup(cut)).rejects.toThrow(BackupError);

      // A picture whose bytes do not match its checksum.
      const tampered = path.join(work, "tampered.jsonl.gz");
      const lines = whole.map((l) => {
        if (!l.includes('"type":"picture"')) return l;
        const p = JSON.parse(l) as { data: string };
        return JSON.stringify({ ...p, data: Buffer.from("not the picture").toString("base64") });
      });
      fs.writeFileSync(tampered, zlib.gzipSync(lines.join("\n")));
      await expect(importBackup(tampered)).rejects.toThrow(/checksum/);

      // A picture key that tries to leave the uploads folder.
      const hostile = path.join(work, "hostile.jsonl.gz");
      const bad = whole.map((l) => (l.includes('"type":"picture"') ? l.replace(/"key":"[^"]+"/, '"key":"../../escape.jpg"') : l));
      fs.writeFileSync(hostile, zlib.gzipSync(bad.join("\n")));
      await expect(importBackup(hostile)).rejects.toThrow(/refused name/);
      expect(fs.existsSync(path.join(work, "escape.jpg"))).toBe(false);

      // Nothing of any refused import was kept.
      expect(Object.values(await snapshot()).every((rows) => rows.length === 0)).toBe(true);
      expect((await pictures(emptyStorage)).size).toBe(0);

      // Not a backup at all.
      const other = path.join(work, "other.gz");
      fs.writeFileSync(other, zlib.gzipSync('{"hello":"world"}\n'));
      await expect(importBackup(other)).rejects.toThrow(/not a backup of this site/);
    } finally {
      useSource();
      await empty.drop();
    }
  });

  it("imports an archive made before drafts existed: its articles are published, dated as before", async () => {
    const empty = await createTestDatabase();
    const emptyStorage = diskStorage(path.join(work, "old-uploads"));
    try {
      setDatabase(empty.database);
      setStorage(emptyStorage);
      const whole = zlib.gunzipSync(fs.readFileSync(archive)).toString("utf8").split("\n");
      const drop = ["status", "published_at", "deleted_at", "version", "visible", "visible_from", "hidden_from"];
      let removed = 0;
      const old = whole
        .filter((l) => !l.includes('"table":"revisions"') || (removed++, false))
        .map((l) => {
          if (!l.startsWith('{"type":"row"')) return l;
          const line = JSON.parse(l) as { table: string; row: Record<string, unknown> };
          if (line.table !== "articles" && line.table !== "team") return l;
          for (const k of drop) delete line.row[k];
          return JSON.stringify(line);
        })
        .map((l) => {
          if (!l.startsWith('{"type":"end"')) return l;
          const end = JSON.parse(l) as { rows: number };
          return JSON.stringify({ ...end, rows: end.rows - removed });
        });
      const file = path.join(work, "old.jsonl.gz");
      fs.writeFileSync(file, zlib.gzipSync(old.join("\n")));
      await importBackup(file, { progress: () => {} });
      const result = await db().execute(
        sql`select count(*)::int as n, count(*) filter (where status = 'published' and published_at = created_at)::int as live from articles`,
      );
      const { n, live } = (result as { rows: { n: number; live: number }[] }).rows[0];
      expect(n).toBeGreaterThan(3);
      expect(live).toBe(n);
      const members = await db().execute(sql`select count(*) filter (where not visible)::int as hidden from team`);
      expect((members as { rows: { hidden: number }[] }).rows[0].hidden).toBe(0);
    } finally {
      useSource();
      await empty.drop();
    }
  });
});

/**
 * Backups of the site's content: one gzip'd JSON-lines file holding every row
 * of `team`, `articles`, `headers` and `hours` (all columns, ids and
 * timestamps to the microsecond) and every stored picture (base64 with its
 * SHA-256). Staff accounts, sessions and sign-in attempts are NOT included:
 * a backup is content only.
 *
 * Format (one JSON object per line, gzip'd):
 *   {"format":"harrow-kline-backup","version":1,"createdAt":…,"migration":…,"counts":{…}}
 *   {"type":"row","table":"team","row":{…}}            (rows, table by table, by id)
 *   {"type":"picture","key":"team/….jpg","sha256":…,"data":"<base64>"}
 *   {"type":"end","rows":N,"pictures":M}                (a missing end line = truncated file)
 *
 * Import restores into an EMPTY database only (refused otherwise), inside one
 * transaction: on any error no row is kept and the pictures written are removed.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { uploadKeys } from "~/lib/images";
import { db, type Db } from "./db/client";
import { MIGRATIONS_DIR } from "./db/client";
import { articles, headers, hours, team } from "./db/schema";
import { getStorage, IMAGE_FOLDERS, isValidKey, type Storage } from "./storage";

export const BACKUP_FORMAT = "harrow-kline-backup";
export const BACKUP_VERSION = 1;

/** The content tables, in the order they are written and restored. */
export const BACKUP_TABLES = { team, articles, headers, hours } as const;
export type BackupTable = keyof typeof BACKUP_TABLES;
const TABLE_NAMES = Object.keys(BACKUP_TABLES) as BackupTable[];

export type BackupProgress = (message: string) => void;

export class BackupError extends Error {}

export type BackupSummary = {
  rows: Record<BackupTable, number>;
  pictures: number;
  pictureBytes: number;
  /** Pictures named by a row but absent from storage (export only). */
  missingPictures: string[];
};

type HeaderLine = {
  format: string;
  version: number;
  createdAt: string;
  migration: string | null;
  counts: { rows: Record<BackupTable, number>; pictures: number };
};
type RowLine = { type: "row"; table: string; row: Record<string, unknown> };
type PictureLine = { type: "picture"; key: string; sha256: string; data: string };
type EndLine = { type: "end"; rows: number; pictures: number };

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The newest migration this code knows (recorded in the header; informative). */
function latestMigration(): string | null {
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    return journal.entries.at(-1)?.tag ?? null;
  } catch {
    return null;
  }
}

/** How often to report progress on pictures: about every 10 %, at least every 50. */
function every(total: number) {
  return Math.max(1, Math.min(50, Math.ceil(total / 10)));
}

async function readRows(tx: Db, table: BackupTable): Promise<Record<string, unknown>[]> {
  // to_jsonb keeps every column as PostgreSQL writes it (timestamps with microseconds,
  // arrays, jsonb), so the import is exact; the Drizzle row (JS Date) would lose precision.
  const result = await tx.execute(sql`select to_jsonb(t) as row from ${sql.identifier(table)} t order by t.id`);
  return rowsOf<{ row: Record<string, unknown> | string }>(result).map((r) =>
    typeof r.row === "string" ? (JSON.parse(r.row) as Record<string, unknown>) : r.row,
  );
}

/**
 * Writes all content and pictures to `file` (through a temporary file renamed
 * at the end, so a failed export never leaves a half-written archive under its name).
 */
export async function exportBackup(
  file: string,
  options: { progress?: BackupProgress; storage?: Storage } = {},
): Promise<BackupSummary> {
  const progress = options.progress ?? (() => {});
  const storage = options.storage ?? getStorage();

  // One consistent snapshot of the rows (content is text: it fits in memory).
  const tables = await db().transaction(
    async (tx) => {
      const out = {} as Record<BackupTable, Record<string, unknown>[]>;
      for (const name of TABLE_NAMES) out[name] = await readRows(tx as unknown as Db, name);
      return out;
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const rowCounts = Object.fromEntries(TABLE_NAMES.map((n) => [n, tables[n].length])) as Record<BackupTable, number>;
  progress(`Exporting ${TABLE_NAMES.map((n) => `${rowCounts[n]} ${n}`).join(", ")} rows…`);

  const keys: string[] = [];
  for (const folder of IMAGE_FOLDERS) keys.push(...(await storage.list(folder)).filter(isValidKey).sort());
  const present = new Set(keys);
  const missingPictures: string[] = [];
  for (const [kind, rows] of [["team", tables.team], ["articles", tables.articles]] as const) {
    for (const row of rows) {
      const img = typeof row.img === "string" ? row.img : "";
      if (!img || img === "none") continue;
      for (const key of uploadKeys(kind, img)) if (!present.has(key)) missingPictures.push(key);
    }
  }

  const header: HeaderLine = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    migration: latestMigration(),
    counts: { rows: rowCounts, pictures: keys.length },
  };

  let pictures = 0;
  let pictureBytes = 0;
  const step = every(keys.length);
  async function* lines(): AsyncGenerator<string> {
    yield JSON.stringify(header) + "\n";
    let rows = 0;
    for (const table of TABLE_NAMES) {
      for (const row of tables[table]) {
        rows++;
        yield JSON.stringify({ type: "row", table, row } satisfies RowLine) + "\n";
      }
    }
    progress(`Exported ${rows} rows. Exporting ${keys.length} pictures…`);
    for (const key of keys) {
      const bytes = await storage.get(key);
      if (!bytes) throw new BackupError(`The picture ${key} disappeared from storage during the export; run the export again.`);
      pictures++;
      pictureBytes += bytes.byteLength;
      yield JSON.stringify({ type: "picture", key, sha256: sha256(bytes), data: bytes.toString("base64") } satisfies PictureLine) + "\n";
      if (pictures % step === 0 || pictures === keys.length) progress(`Exported ${pictures}/${keys.length} pictures…`);
    }
    yield JSON.stringify({ type: "end", rows, pictures } satisfies EndLine) + "\n";
  }

  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.partial`;
  try {
    await pipeline(Readable.from(lines()), zlib.createGzip({ level: 6 }), fs.createWriteStream(tmp, { flags: "wx" }));
    const handle = await fs.promises.open(tmp, "r+");
    await handle.sync();
    await handle.close();
    await fs.promises.rename(tmp, target);
  } catch (error) {
    await fs.promises.rm(tmp, { force: true });
    throw error;
  }
  return { rows: rowCounts, pictures, pictureBytes, missingPictures };
}

/** Row counts of the content tables (all zero = an empty database). */
export async function contentCounts(): Promise<Record<BackupTable, number>> {
  const out = {} as Record<BackupTable, number>;
  for (const name of TABLE_NAMES) {
    const [row] = await db().select({ n: sql<number>`count(*)::int` }).from(BACKUP_TABLES[name] as PgTable);
    out[name] = row?.n ?? 0;
  }
  return out;
}

function parseLine(text: string, lineNo: number): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* below */
  }
  throw new BackupError(`The archive is damaged: line ${lineNo} is not a JSON object.`);
}

/**
 * Restores an archive written by exportBackup into an empty database.
 * Refused (BackupError, nothing written) when any content row exists.
 */
export async function importBackup(
  file: string,
  options: { progress?: BackupProgress; storage?: Storage } = {},
): Promise<BackupSummary> {
  const progress = options.progress ?? (() => {});
  const storage = options.storage ?? getStorage();
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new BackupError(`No archive at ${source}.`);

  const existing = await contentCounts();
  if (Object.values(existing).some((n) => n > 0)) {
    const what = TABLE_NAMES.filter((n) => existing[n] > 0)
      .map((n) => `${existing[n]} ${n}`)
      .join(", ");
    throw new BackupError(
      `Refused: the database already has content (${what} rows). An import restores into an empty database only; ` +
        `point DATABASE_URL (or DATA_DIR with SEED_DEMO=false) at a new database and run the import again.`,
    );
  }

  const columns = Object.fromEntries(
    TABLE_NAMES.map((n) => [n, new Set(getTableConfig(BACKUP_TABLES[n] as PgTable).columns.map((c) => c.name))]),
  ) as Record<BackupTable, Set<string>>;

  const written: string[] = [];
  const rows = Object.fromEntries(TABLE_NAMES.map((n) => [n, 0])) as Record<BackupTable, number>;
  let pictures = 0;
  let pictureBytes = 0;

  try {
    await db().transaction(async (txAny) => {
      const tx = txAny as unknown as Db;
      const input = fs.createReadStream(source).pipe(zlib.createGunzip());
      const lines = readline.createInterface({ input, crlfDelay: Infinity });
      let lineNo = 0;
      let header: HeaderLine | undefined;
      let end: EndLine | undefined;
      let step = 1;
      let expectedPictures = 0;
      try {
        for await (const text of lines) {
          lineNo++;
          if (!text) continue;
          if (end) throw new BackupError(`The archive is damaged: data after its end (line ${lineNo}).`);
          const line = parseLine(text, lineNo);
          if (!header) {
            if (line.format !== BACKUP_FORMAT) throw new BackupError(`${source} is not a backup of this site (no "${BACKUP_FORMAT}" header).`);
            if (line.version !== BACKUP_VERSION) {
              throw new BackupError(`This archive is version ${String(line.version)}; this program reads version ${BACKUP_VERSION}.`);
            }
            header = line as unknown as HeaderLine;
            expectedPictures = header.counts?.pictures ?? 0;
            step = every(expectedPictures);
            progress(`Importing a backup made ${header.createdAt}…`);
            continue;
          }
          if (line.type === "row") {
            const table = line.table as BackupTable;
            if (!TABLE_NAMES.includes(table)) throw new BackupError(`The archive names an unknown table ${JSON.stringify(line.table)} (line ${lineNo}).`);
            const row = line.row as Record<string, unknown> | undefined;
            if (!row || typeof row !== "object") throw new BackupError(`The archive is damaged: row without data (line ${lineNo}).`);
            const names = Object.keys(row);
            const unknown = names.filter((n) => !columns[table].has(n));
            if (unknown.length) {
              throw new BackupError(
                `The archive has column(s) ${unknown.join(", ")} in ${table} that this database does not; update the site before importing.`,
              );
            }
            // jsonb_populate_record converts each JSON value to the column's own type;
            // only the archive's columns are named, so columns added since take their defaults.
            const list = sql.join(names.map((n) => sql.identifier(n)), sql`, `);
            await tx.execute(
              sql`insert into ${sql.identifier(table)} (${list}) select ${list} from jsonb_populate_record(null::${sql.identifier(table)}, ${JSON.stringify(row)}::jsonb)`,
            );
            rows[table]++;
            continue;
          }
          if (line.type === "picture") {
            const key = String(line.key);
            if (!isValidKey(key)) throw new BackupError(`The archive holds a picture with a refused name ${JSON.stringify(key)} (line ${lineNo}).`);
            const bytes = Buffer.from(String(line.data ?? ""), "base64");
            if (sha256(bytes) !== line.sha256) throw new BackupError(`The picture ${key} is damaged in the archive (checksum mismatch).`);
            if (pictures === 0) progress(`Imported ${TABLE_NAMES.map((n) => `${rows[n]} ${n}`).join(", ")} rows. Importing pictures…`);
            await storage.put(key, bytes);
            written.push(key);
            pictures++;
            pictureBytes += bytes.byteLength;
            if (pictures % step === 0 || pictures === expectedPictures) progress(`Imported ${pictures}/${expectedPictures} pictures…`);
            continue;
          }
          if (line.type === "end") {
            end = line as unknown as EndLine;
            continue;
          }
          throw new BackupError(`The archive is damaged: unknown line type ${JSON.stringify(line.type)} (line ${lineNo}).`);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "Z_BUF_ERROR" || (error as NodeJS.ErrnoException).code === "Z_DATA_ERROR") {
          throw new BackupError(`The archive is damaged or truncated (${(error as Error).message}); nothing was imported.`);
        }
        throw error;
      } finally {
        lines.close();
        input.destroy();
      }
      if (!header) throw new BackupError(`${source} is empty or not a backup of this site.`);
      const total = TABLE_NAMES.reduce((n, t) => n + rows[t], 0);
      if (!end || end.rows !== total || end.pictures !== pictures) {
        throw new BackupError("The archive is truncated or incomplete (its end marker is missing or does not match); nothing was imported.");
      }
      // New rows must not collide with restored ids.
      for (const table of TABLE_NAMES) {
        await tx.execute(
          sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.identifier(table)}), 0) + 1, false)`,
        );
      }
    });
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => {})));
    throw error;
  }
  return { rows, pictures, pictureBytes, missingPictures: [] };
}

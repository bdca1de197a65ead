/**
 * Where uploaded pictures live: the disk (`DATA_DIR/uploads`, the default) or
 * an S3-compatible bucket (`S3_BUCKET`…, storage-s3.ts), behind one interface.
 * Keys are `team/{uuid}.{ext}` or `articles/{uuid}-{width}.webp`, plus
 * `og/{kind}-{uuid}.jpg`: the 1200×630 link-preview pictures made from them on
 * demand (regenerable, so left out of IMAGE_FOLDERS and backups), and
 * `bios/{member id}-{hash}.pdf`, the lawyers' PDF bios (bio-pdf.ts; also
 * regenerable and left out). Nothing outside those folders is reachable.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv, type Env } from "./env";
import { s3Storage } from "./storage-s3";

export const IMAGE_FOLDERS = ["team", "articles"] as const;
export type ImageFolder = (typeof IMAGE_FOLDERS)[number];
/** Folders `list` reads: the pictures', and the PDF bios'. */
export type StorageFolder = ImageFolder | "bios" | "files";

/** Files a WordPress import brought that are not pictures (served at /files/{name}; kept in backups). */
export const FILE_EXTENSIONS = [
  "pdf",
  "doc",
  "docx",
  "xls",
  "xlsx",
  "ppt",
  "pptx",
  "odt",
  "ods",
  "odp",
  "rtf",
  "zip",
  "mp3",
  "m4a",
  "mp4",
] as const;
const FILE_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  rtf: "application/rtf",
  zip: "application/zip",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  mp4: "video/mp4",
};

/**
 * put/get/delete/list of picture files. `get` answers undefined for a key
 * that is not stored; a store that cannot be reached (a bucket that does not
 * answer, refused credentials, a full disk) throws StorageUnavailable.
 */
export interface Storage {
  /** "disk" or "bucket" (log lines, the sweep's choice of schedule). */
  readonly kind: "disk" | "bucket";
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
  /** Every key in a folder (a bucket is listed page by page). */
  list(folder: StorageFolder): Promise<string[]>;
  /** Removes half-written files a crash left behind (older than `olderThanMs`); how many. */
  removeStaleTemporary?(olderThanMs: number): Promise<number>;
  /** Throws StorageUnavailable when the store does not answer (a start-up check). */
  check?(): Promise<void>;
  /** Frees connections (scripts, tests). */
  close?(): void;
}

/** The picture store could not be reached or refused the request; nothing about the key itself. */
export class StorageUnavailable extends Error {
  override name = "StorageUnavailable";
}

/** The Content-Type of a stored picture, from its key. */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  return FILE_TYPES[ext] ?? (ext === "jpg" ? "image/jpeg" : `image/${ext}`);
}

const KEY = new RegExp(
  `^(?:(team|articles|og)/[a-z0-9-]{1,80}\\.(jpg|png|webp|avif)|bios/[a-z0-9-]{1,80}\\.pdf|files/[a-z0-9-]{1,120}\\.(?:${FILE_EXTENSIONS.join("|")}))$`,
);

export function isValidKey(key: string): boolean {
  return KEY.test(key);
}

function checkKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

export function diskStorage(root: string): Storage {
  return {
    kind: "disk",
    async put(key, bytes) {
      checkKey(key);
      const file = path.join(root, key);
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        const handle = await fs.open(tmp, "w");
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(tmp, file);
      } catch (error) {
        await fs.rm(tmp, { force: true }).catch(() => {});
        throw new StorageUnavailable(
          `The picture folder ${root} could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
    },
    async get(key) {
      if (!isValidKey(key)) return undefined;
      try {
        return await fs.readFile(path.join(root, key));
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      checkKey(key);
      await fs.rm(path.join(root, key), { force: true });
    },
    async list(folder) {
      try {
        return (await fs.readdir(path.join(root, folder))).filter((f) => !f.endsWith(".tmp")).map((f) => `${folder}/${f}`);
      } catch {
        return [];
      }
    },
    async removeStaleTemporary(olderThanMs) {
      const before = Date.now() - olderThanMs;
      let removed = 0;
      for (const folder of [...IMAGE_FOLDERS, "og", "bios", "files"]) {
        let names: string[];
        try {
          names = await fs.readdir(path.join(root, folder));
        } catch {
          continue;
        }
        for (const name of names.filter((f) => f.endsWith(".tmp"))) {
          const file = path.join(root, folder, name);
          const stat = await fs.stat(file).catch(() => undefined);
          if (stat && stat.mtimeMs <= before) {
            await fs.rm(file, { force: true });
            removed++;
          }
        }
      }
      return removed;
    },
  };
}

const holder = globalThis as unknown as { __firmStorage?: Storage };

/** The store the environment names: a bucket when S3_BUCKET is set, else DATA_DIR/uploads. */
export function configuredStorage(env: Env = getEnv()): Storage {
  if (env.S3_BUCKET) {
    return s3Storage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    });
  }
  return diskStorage(path.join(env.dataDir, "uploads"));
}

export function getStorage(): Storage {
  holder.__firmStorage ??= configuredStorage();
  return holder.__firmStorage;
}

export function setStorage(storage: Storage | undefined) {
  holder.__firmStorage = storage;
}

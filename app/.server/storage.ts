/**
 * Where uploaded pictures live: a small interface so an S3-compatible store
 * can replace the disk later. Keys are `team/{uuid}.{ext}` or
 * `articles/{uuid}-{width}.webp`, plus `og/{kind}-{uuid}.jpg`: the 1200×630
 * link-preview pictures made from them on demand (regenerable, so left out of
 * IMAGE_FOLDERS and backups). Nothing outside those folders is reachable.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "./env";

export const IMAGE_FOLDERS = ["team", "articles"] as const;
export type ImageFolder = (typeof IMAGE_FOLDERS)[number];

export interface Storage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
  list(folder: ImageFolder): Promise<string[]>;
  /** Removes half-written files a crash left behind (older than `olderThanMs`); how many. */
  removeStaleTemporary?(olderThanMs: number): Promise<number>;
}

const KEY = /^(team|articles|og)\/[a-z0-9-]{1,80}\.(jpg|png|webp|avif)$/;

export function isValidKey(key: string): boolean {
  return KEY.test(key);
}

function checkKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

export function diskStorage(root: string): Storage {
  return {
    async put(key, bytes) {
      checkKey(key);
      const file = path.join(root, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      const handle = await fs.open(tmp, "w");
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, file);
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
      for (const folder of [...IMAGE_FOLDERS, "og"]) {
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

export function getStorage(): Storage {
  holder.__firmStorage ??= diskStorage(path.join(getEnv().dataDir, "uploads"));
  return holder.__firmStorage;
}

export function setStorage(storage: Storage | undefined) {
  holder.__firmStorage = storage;
}

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
import { getEnv, type Env } from "../env";
import { IMAGE_FOLDERS, isValidKey, StorageUnavailable, type Storage } from "./contract";
import { s3Storage } from "./storage-s3";

// The contract every store keeps (contract.ts), for the rest of the app to import from here.
export {
  contentTypeOf,
  FILE_EXTENSIONS,
  IMAGE_FOLDERS,
  isValidKey,
  StorageUnavailable,
  type ImageFolder,
  type Storage,
  type StorageFolder,
} from "./contract";

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

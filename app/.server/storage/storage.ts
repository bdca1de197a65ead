/**
 * Where uploaded pictures live: the disk (`DATA_DIR/uploads`, the default) or
 * an S3-compatible bucket (`S3_BUCKET`…, storage-s3.ts), behind one interface.
 * Keys are `team/{uuid}.{ext}` or `articles/{uuid}-{width}.webp`, plus
 * `og/{kind}-{uuid}.jpg`: the 1200×630 link-preview pictures made from them on
 * demand (regenerable, so left out of IMAGE_FOLDERS and backups), and
 * `bios/{member id}-{hash}.pdf`, the lawyers' PDF bios (bio-pdf.ts; also
 * regenerable and left out). Nothing outside those folders is reachable.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv, type Env } from "../env";
import { currentServices, processServices } from "../services";
import { IMAGE_FOLDERS, isStoredKey, StorageUnavailable, type Storage } from "./contract";
import { s3Storage } from "./storage-s3";

// The contract every store keeps (contract.ts), for the rest of the app to import from here.
export {
  contentTypeOf,
  FILE_EXTENSIONS,
  IMAGE_FOLDERS,
  IMPORT_KEY,
  isValidKey,
  RECORDING_EXTENSIONS,
  StorageUnavailable,
  type ImageFolder,
  type RecordingExtension,
  type Storage,
  type StorageFolder,
} from "./contract";

function checkKey(key: string) {
  if (!isStoredKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
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
      if (!isStoredKey(key)) return undefined;
      try {
        return await fs.readFile(path.join(root, key));
      } catch {
        return undefined;
      }
    },
    async putStream(key, body, maxBytes, tooLarge) {
      checkKey(key);
      const file = path.join(root, key);
      const tmp = `${file}.${process.pid}.tmp`;
      // Only the disk's own failures are "cannot be written"; the sender's (a dropped upload) go up as they are.
      const disk = (error: unknown) =>
        new StorageUnavailable(
          `The folder ${root} could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      let size = 0;
      let handle: fs.FileHandle | undefined;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true }).catch((e: unknown) => Promise.reject(disk(e)));
        const open = await fs.open(tmp, "w").catch((e: unknown) => Promise.reject(disk(e)));
        handle = open;
        for await (const chunk of body) {
          size += chunk.byteLength;
          if (size > maxBytes) throw tooLarge();
          await open.write(chunk).catch((e: unknown) => Promise.reject(disk(e)));
        }
        await open.sync().catch((e: unknown) => Promise.reject(disk(e)));
        await open.close();
        handle = undefined;
        await fs.rename(tmp, file).catch((e: unknown) => Promise.reject(disk(e)));
        return size;
      } catch (error) {
        await handle?.close().catch(() => {});
        await fs.rm(tmp, { force: true }).catch(() => {});
        throw error;
      }
    },
    async getStream(key) {
      if (!isStoredKey(key)) return undefined;
      const file = path.join(root, key);
      try {
        await fs.access(file);
      } catch {
        return undefined;
      }
      return createReadStream(file, { highWaterMark: 256 * 1024 });
    },
    async size(key) {
      if (!isStoredKey(key)) return undefined;
      const stat = await fs.stat(path.join(root, key)).catch(() => undefined);
      return stat?.isFile() ? stat.size : undefined;
    },
    async readRange(key, start, end) {
      if (!isStoredKey(key)) return undefined;
      const handle = await fs.open(path.join(root, key), "r").catch(() => undefined);
      if (!handle) return undefined;
      return handle.createReadStream({ start, end });
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
      for (const folder of [...IMAGE_FOLDERS, "og", "bios", "files", "imports", "recordings"]) {
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

/** The current services' store (a request's, else the process's: services.ts), made from the environment on first use. */
export function getStorage(): Storage {
  const services = currentServices();
  services.storage ??= configuredStorage();
  return services.storage;
}

export function setStorage(storage: Storage | undefined) {
  processServices().storage = storage;
}

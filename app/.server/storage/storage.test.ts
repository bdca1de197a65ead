/**
 * The storage contract, run on both implementations: the disk
 * (DATA_DIR/uploads) and a real S3-compatible bucket (s3rver, started here).
 * Each "site instance" is a separate Storage object over the same folder or
 * bucket, as two app processes would have.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3, type TestBucket } from "../../../tests/support/s3";
import { parseEnv } from "../env";
import { configuredStorage, diskStorage, StorageUnavailable, type Storage } from "./storage";
import { s3Storage } from "./storage-s3";

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

type Backend = {
  name: string;
  /** A fresh, empty store; `instance` picks one of two processes sharing it. */
  open(): Promise<{ instance(n: 0 | 1, options?: { pageSize?: number }): Storage; unreachable(): Storage }>;
  cleanup(): Promise<void>;
};

let s3: TestBucket | undefined;
const dirs: string[] = [];

const backends: Backend[] = [
  {
    name: "disk",
    open() {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "storage-contract-"));
      dirs.push(root);
      const blocked = path.join(root, "not-a-folder");
      fs.writeFileSync(blocked, "");
      return Promise.resolve({
        instance: () => diskStorage(path.join(root, "uploads")),
        // A "folder" that is a file: nothing can be written under it.
        unreachable: () => diskStorage(blocked),
      });
    },
    cleanup() {
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
      return Promise.resolve();
    },
  },
  {
    name: "S3 bucket (s3rver)",
    async open() {
      s3?.storage().close?.();
      await s3?.stop();
      s3 = await startS3({ bucket: `contract-${Date.now().toString(36)}` });
      const closedPort = await new Promise<number>((resolve) => {
        const srv = net.createServer().listen(0, "127.0.0.1", () => {
          const { port } = srv.address() as net.AddressInfo;
          srv.close(() => resolve(port));
        });
      });
      const bucket = s3;
      return {
        instance: (_n, options = {}) => bucket.storage(options),
        unreachable: () =>
          s3Storage({
            bucket: bucket.bucket,
            endpoint: `http://127.0.0.1:${closedPort}`,
            accessKeyId: "S3RVER",
            secretAccessKey: "S3RVER",
            forcePathStyle: true,
            maxAttempts: 1,
          }),
      };
    },
    async cleanup() {
      await s3?.stop();
      s3 = undefined;
    },
  },
];

describe.each(backends)("storage contract: $name", (backend) => {
  let a: Storage;
  let b: Storage;
  let unreachable: Storage;
  let open: Awaited<ReturnType<Backend["open"]>>;

  beforeAll(async () => {
    open = await backend.open();
    a = open.instance(0);
    b = open.instance(1);
    unreachable = open.unreachable();
  });
  afterAll(async () => {
    unreachable.close?.();
    await backend.cleanup();
  });

  it("gives back the bytes it stored, to every instance, and overwrites in place", async () => {
    await a.put("team/0a1b2c.jpg", bytes("portrait v1"));
    expect((await a.get("team/0a1b2c.jpg"))?.toString()).toBe("portrait v1");
    // Written through one instance, read through the other.
    expect((await b.get("team/0a1b2c.jpg"))?.toString()).toBe("portrait v1");
    await b.put("team/0a1b2c.jpg", bytes("portrait v2"));
    expect((await a.get("team/0a1b2c.jpg"))?.toString()).toBe("portrait v2");
  });

  it("keeps binary bytes exactly", async () => {
    const all = new Uint8Array(256 * 64).map((_, i) => (i * 7) % 256);
    await a.put("articles/binary-480.webp", all);
    expect(new Uint8Array((await b.get("articles/binary-480.webp"))!)).toEqual(all);
  });

  it("answers undefined for a key that is not stored, and for a key outside the picture folders", async () => {
    expect(await a.get("team/never-stored.jpg")).toBeUndefined();
    expect(await a.get("../etc/passwd")).toBeUndefined();
    expect(await a.get("team/../../secret.jpg")).toBeUndefined();
    expect(await a.get("other/x.jpg")).toBeUndefined();
  });

  it("refuses to write a key outside the picture folders", async () => {
    await expect(a.put("../escape.jpg", bytes("x"))).rejects.toThrow(/Invalid storage key/);
    await expect(a.put("team/x.exe", bytes("x"))).rejects.toThrow(/Invalid storage key/);
    await expect(a.delete("team/../x.jpg")).rejects.toThrow(/Invalid storage key/);
  });

  it("lists a folder's keys only (not another folder's, not the link-preview pictures)", async () => {
    await a.put("team/list-one.png", bytes("1"));
    await a.put("articles/list-two.jpg", bytes("2"));
    await a.put("og/team-list-one.jpg", bytes("3"));
    const team = await b.list("team");
    expect(team).toContain("team/list-one.png");
    expect(team).toContain("team/0a1b2c.jpg");
    expect(team.every((k) => k.startsWith("team/"))).toBe(true);
    const articles = await b.list("articles");
    expect(articles).toContain("articles/list-two.jpg");
    expect(articles).not.toContain("og/team-list-one.jpg");
  });

  it("lists every key of a folder when the listing comes in pages", async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `articles/paged-${i}-960.webp`);
    for (const key of keys) await a.put(key, bytes(key));
    const small = open.instance(1, { pageSize: 2 });
    const listed = await small.list("articles");
    for (const key of keys) expect(listed).toContain(key);
    expect(new Set(listed).size).toBe(listed.length);
    small.close?.();
  });

  it("deletes for every instance; deleting what is gone is not an error", async () => {
    await a.put("team/to-remove.webp", bytes("x"));
    await b.delete("team/to-remove.webp");
    expect(await a.get("team/to-remove.webp")).toBeUndefined();
    expect(await a.list("team")).not.toContain("team/to-remove.webp");
    await expect(a.delete("team/to-remove.webp")).resolves.toBeUndefined();
  });

  it("says StorageUnavailable when the store cannot be written", async () => {
    await expect(unreachable.put("team/offline.jpg", bytes("x"))).rejects.toBeInstanceOf(StorageUnavailable);
  });
});

describe("S3 bucket specifics", () => {
  let bucket: TestBucket;
  beforeAll(async () => {
    bucket = await startS3({ bucket: "specifics" });
  });
  afterAll(async () => {
    await bucket.stop();
  });

  it("stores pictures with their type and a year-long immutable cache, so the bucket can serve them itself", async () => {
    const storage = bucket.storage();
    await storage.put("articles/cache-test-960.avif", bytes("avif bytes"));
    const direct = await fetch(`${bucket.endpoint}/${bucket.bucket}/articles/cache-test-960.avif`);
    expect(direct.status).toBe(200);
    expect(direct.headers.get("content-type")).toBe("image/avif");
    expect(direct.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await direct.text()).toBe("avif bytes");
  });

  it("reads, lists and checks fail with StorageUnavailable (not 'missing') when the bucket stops answering", async () => {
    const other = await startS3({ bucket: "stopping" });
    const storage = other.storage({ maxAttempts: 1, connectTimeoutMs: 500 });
    await storage.put("team/before-stop.jpg", bytes("x"));
    await expect(storage.check!()).resolves.toBeUndefined();
    await other.stop();
    await expect(storage.get("team/before-stop.jpg")).rejects.toBeInstanceOf(StorageUnavailable);
    await expect(storage.list("team")).rejects.toBeInstanceOf(StorageUnavailable);
    await expect(storage.check!()).rejects.toThrow(/could not be reached/);
  });

  it("a bucket that does not exist is refused with a message naming it, not the secret", async () => {
    const wrong = s3Storage({
      bucket: "no-such-bucket",
      endpoint: bucket.endpoint,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
      maxAttempts: 1,
    });
    const error = await wrong.put("team/denied.jpg", bytes("x")).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(StorageUnavailable);
    expect((error as Error).message).toMatch(/bucket no-such-bucket/);
    expect((error as Error).message).not.toContain("S3RVER");
    wrong.close?.();
  });

  it("a bucket that hangs (accepts, never answers) fails within the request timeout", async () => {
    const frozen = await startS3({ bucket: "frozen" });
    const storage = frozen.storage({ maxAttempts: 1, requestTimeoutMs: 1000, deadlineMs: 3000 });
    await storage.put("team/first.jpg", bytes("x"));
    frozen.pause();
    const started = Date.now();
    await expect(storage.put("team/second.jpg", bytes("y"))).rejects.toBeInstanceOf(StorageUnavailable);
    expect(Date.now() - started).toBeLessThan(10_000);
    frozen.resume();
    await frozen.stop();
  });
});

describe("the configured store", () => {
  it("is the disk by default and the bucket when S3_BUCKET is set", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "configured-"));
    expect(configuredStorage(parseEnv({ DATA_DIR: dataDir })).kind).toBe("disk");
    const bucket = await startS3({ bucket: "configured" });
    try {
      const storage = configuredStorage(parseEnv({ DATA_DIR: dataDir, ...bucket.env }));
      expect(storage.kind).toBe("bucket");
      await storage.put("team/configured.jpg", bytes("x"));
      expect(await bucket.storage().list("team")).toEqual(["team/configured.jpg"]);
      storage.close?.();
    } finally {
      await bucket.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

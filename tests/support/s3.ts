/**
 * A real S3-compatible server for tests: s3rver (an npm package) in a child
 * process on a free loopback port, with a fresh folder and one bucket.
 * Credentials are s3rver's fixed S3RVER/S3RVER; addressing is path-style.
 * (Its own process because s3rver needs OpenSSL's legacy provider for paged
 * listings, see s3rver-process.mjs; it also lets a test freeze the bucket.)
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { s3Storage, type S3Options } from "~/.server/storage/storage-s3";
import type { Storage } from "~/.server/storage/storage";

export type TestBucket = {
  endpoint: string;
  bucket: string;
  port: number;
  /** The S3_ environment variables that point the app at this bucket. */
  env: Record<string, string>;
  storage(options?: Partial<S3Options>): Storage;
  /** Freezes the server (SIGSTOP): connections open, nothing answers. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
};

const SCRIPT = path.join(import.meta.dirname, "s3rver-process.mjs");

export async function startS3(options: { port?: number; bucket?: string; directory?: string } = {}): Promise<TestBucket> {
  const bucket = options.bucket ?? "firm-pictures";
  const directory = options.directory ?? fs.mkdtempSync(path.join(os.tmpdir(), "firm-s3-"));
  const child: ChildProcess = spawn(process.execPath, ["--openssl-legacy-provider", SCRIPT, directory, bucket, String(options.port ?? 0)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr!.on("data", (d) => (errors += d));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`s3rver did not start:\n${errors}`)), 20_000);
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code}:\n${errors}`));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const made: Storage[] = [];
  return {
    endpoint,
    bucket,
    port,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    storage(extra = {}) {
      const storage = s3Storage({
        bucket,
        endpoint,
        region: "us-east-1",
        accessKeyId: "S3RVER",
        secretAccessKey: "S3RVER",
        forcePathStyle: true,
        ...extra,
      });
      made.push(storage);
      return storage;
    },
    pause() {
      child.kill("SIGSTOP");
    },
    resume() {
      child.kill("SIGCONT");
    },
    async stop() {
      for (const s of made) s.close?.();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGCONT");
        await new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 3000).unref();
        });
      }
      if (!options.directory) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

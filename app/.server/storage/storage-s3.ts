/**
 * Pictures in an S3-compatible bucket (AWS S3, Cloudflare R2, Backblaze B2,
 * MinIO…) through the AWS SDK v3 S3 client (docs/decisions/0007). The same
 * keys as on disk (`team/….jpg`, `articles/…-960.webp`, `og/….jpg`), written
 * with their Content-Type and a year-long immutable Cache-Control, so the
 * bucket (or a CDN in front of it, PICTURE_BASE_URL) can serve them directly:
 * a name is a fresh uuid per upload and is never reused for other bytes.
 *
 * Every instance of the site reads and writes the same bucket, so a width or
 * link-preview picture made by one instance is found by the others. The SDK
 * is loaded on first use: a site on the disk never pays for it.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { contentTypeOf, IMAGE_FOLDERS, isStoredKey, StorageUnavailable, type Storage } from "./contract";

/** A streamed file goes up in parts of this size (S3 takes parts of 5 MB at least, but the last); one part is in memory at a time. */
export const PART_BYTES = 8 * 1024 * 1024;

export type S3Options = {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Keys per listing request (S3 answers at most 1000). */
  pageSize?: number;
  /**
   * Milliseconds to open a connection, to wait on a silent connection, and at
   * most for one operation with its retries; attempts per operation. A bucket
   * that does not answer costs a save at most `deadlineMs`, then a clear message.
   */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  deadlineMs?: number;
  maxAttempts?: number;
};

export const PICTURE_CACHE_CONTROL = "public, max-age=31536000, immutable";

type Sdk = typeof import("@aws-sdk/client-s3");

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function describe(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string };
  const status = statusOf(error);
  return [e.name && e.name !== "Error" ? e.name : e.code, status ? `HTTP ${status}` : "", e.message]
    .filter(Boolean)
    .join(" ")
    .slice(0, 300);
}

export function s3Storage(options: S3Options): Storage {
  const bucket = options.bucket;
  const where = `bucket ${bucket}${options.endpoint ? ` at ${new URL(options.endpoint).host}` : ""}`;
  let loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  function connect() {
    loaded ??= (async () => {
      // The SDK warns on every start that its releases from 2027 on need Node 22; this
      // site pins a release that supports Node 20 (decision 0007), so the warning is noise.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
      const sdk = await import("@aws-sdk/client-s3");
      const client = new sdk.S3Client({
        region: options.region ?? "us-east-1",
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle ?? false,
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
        maxAttempts: options.maxAttempts ?? 2,
        // Other S3-compatible services do not all accept the SDK's default CRC checksums.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        requestHandler: {
          connectionTimeout: options.connectTimeoutMs ?? 3000,
          requestTimeout: options.requestTimeoutMs ?? 10_000,
          // Without it a silent connection is only logged, and the request waits forever.
          throwOnRequestTimeout: true,
        },
      });
      return { sdk, client };
    })();
    return loaded;
  }

  const deadline = () => ({ abortSignal: AbortSignal.timeout(options.deadlineMs ?? 20_000) });

  function unavailable(action: string, error: unknown): StorageUnavailable {
    return new StorageUnavailable(`The picture ${where} could not ${action}: ${describe(error)}`);
  }

  function checkKey(key: string) {
    if (!isStoredKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }

  return {
    kind: "bucket",
    async put(key, bytes) {
      checkKey(key);
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentType: contentTypeOf(key),
            CacheControl: PICTURE_CACHE_CONTROL,
            ContentDisposition: "inline",
          }),
          deadline(),
        );
      } catch (error) {
        throw unavailable(`store ${key}`, error);
      }
    },
    async putStream(key, body, maxBytes, tooLarge) {
      checkKey(key);
      const { sdk, client } = await connect();
      const store = (error: unknown) => unavailable(`store ${key}`, error);
      let size = 0;
      let part: Uint8Array[] = [];
      let partSize = 0;
      let uploadId: string | undefined;
      const parts: { ETag?: string; PartNumber: number }[] = [];
      const sendPart = async () => {
        if (!uploadId) {
          const created = await client
            .send(new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentTypeOf(key) }), deadline())
            .catch((e: unknown) => Promise.reject(store(e)));
          uploadId = created.UploadId;
        }
        const PartNumber = parts.length + 1;
        const answer = await client
          .send(new sdk.UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: Buffer.concat(part) }), {
            abortSignal: AbortSignal.timeout(Math.max(options.deadlineMs ?? 20_000, 120_000)),
          })
          .catch((e: unknown) => Promise.reject(store(e)));
        parts.push({ ETag: answer.ETag, PartNumber });
        part = [];
        partSize = 0;
      };
      try {
        for await (const chunk of body) {
          size += chunk.byteLength;
          if (size > maxBytes) throw tooLarge();
          part.push(chunk);
          partSize += chunk.byteLength;
          if (partSize >= PART_BYTES) await sendPart();
        }
        if (!uploadId) {
          // A small file: one request.
          await client
            .send(
              new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.concat(part), ContentType: contentTypeOf(key) }),
              deadline(),
            )
            .catch((e: unknown) => Promise.reject(store(e)));
          return size;
        }
        if (partSize) await sendPart();
        await client
          .send(
            new sdk.CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
            deadline(),
          )
          .catch((e: unknown) => Promise.reject(store(e)));
        return size;
      } catch (error) {
        if (uploadId)
          await client
            .send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }), deadline())
            .catch(() => {});
        throw error;
      }
    },
    async getStream(key) {
      if (!isStoredKey(key)) return undefined;
      const { sdk, client } = await connect();
      // Read a part at a time, each a request of its own read whole: a slow reader (an import downloading the
      // old site's pictures between items) never leaves a connection idle past the client's request timeout.
      const range = async (from: number) => {
        try {
          const answer = await client.send(
            new sdk.GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${from}-${from + PART_BYTES - 1}` }),
            { abortSignal: AbortSignal.timeout(Math.max(options.deadlineMs ?? 20_000, 120_000)) },
          );
          const bytes = answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
          const total = Number(/\/(\d+)$/.exec(answer.ContentRange ?? "")?.[1] ?? from + bytes.byteLength);
          return { bytes, total };
        } catch (error) {
          if ((error as Error).name === "NoSuchKey" || statusOf(error) === 404) return undefined;
          // An empty file answers 416 to any range.
          if (statusOf(error) === 416 && from === 0) return { bytes: new Uint8Array(), total: 0 };
          throw unavailable(`read ${key}`, error);
        }
      };
      const first = await range(0);
      if (!first) return undefined;
      return (async function* () {
        let at = first.bytes.byteLength;
        if (at) yield first.bytes;
        while (at < first.total) {
          const next = await range(at);
          if (!next?.bytes.byteLength) throw new StorageUnavailable(`The file ${key} in the ${where} changed or went while it was read.`);
          at += next.bytes.byteLength;
          yield next.bytes;
        }
      })();
    },
    async get(key) {
      if (!isStoredKey(key)) return undefined;
      const { sdk, client } = await connect();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), deadline());
        if (!answer.Body) return undefined;
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if ((error as Error).name === "NoSuchKey" || statusOf(error) === 404) return undefined;
        throw unavailable(`read ${key}`, error);
      }
    },
    async size(key) {
      if (!isStoredKey(key)) return undefined;
      const { sdk, client } = await connect();
      try {
        return (await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }), deadline())).ContentLength;
      } catch (error) {
        if ((error as Error).name === "NotFound" || statusOf(error) === 404) return undefined;
        throw unavailable(`read ${key}`, error);
      }
    },
    async readRange(key, start, end) {
      if (!isStoredKey(key)) return undefined;
      const { sdk, client } = await connect();
      try {
        // The Range goes on to the bucket: only the bytes asked for travel. The deadline is for the
        // answer's head only: the body then streams to the visitor as fast as they read it.
        const abort = new AbortController();
        const timer = setTimeout(() => abort.abort(), options.deadlineMs ?? 20_000);
        try {
          const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${end}` }), {
            abortSignal: abort.signal,
          });
          return answer.Body as NodeJS.ReadableStream | undefined;
        } finally {
          clearTimeout(timer);
        }
      } catch (error) {
        if ((error as Error).name === "NoSuchKey" || statusOf(error) === 404) return undefined;
        throw unavailable(`read ${key}`, error);
      }
    },
    async delete(key) {
      checkKey(key);
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), deadline());
      } catch (error) {
        if (statusOf(error) === 404) return;
        throw unavailable(`delete ${key}`, error);
      }
    },
    async list(folder) {
      if (!(IMAGE_FOLDERS as readonly string[]).includes(folder) && !["bios", "files", "imports", "recordings"].includes(folder)) return [];
      const { sdk, client } = await connect();
      const keys: string[] = [];
      try {
        // One request a page (S3 answers at most 1000 keys), each with its own deadline.
        let token: string | undefined;
        do {
          const page = await client.send(
            new sdk.ListObjectsV2Command({
              Bucket: bucket,
              Prefix: `${folder}/`,
              MaxKeys: options.pageSize ?? 1000,
              ContinuationToken: token,
            }),
            deadline(),
          );
          for (const item of page.Contents ?? []) if (item.Key && isStoredKey(item.Key)) keys.push(item.Key);
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (error) {
        throw unavailable(`list ${folder}/`, error);
      }
      return keys;
    },
    async check() {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }), deadline());
      } catch (error) {
        throw unavailable("be reached", error);
      }
    },
    close() {
      void loaded?.then(({ client }) => client.destroy());
      loaded = undefined;
    },
  };
}

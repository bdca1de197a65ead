import type { NextFunction, Request, Response } from "express";
import zlib from "node:zlib";
import { pickEncoding } from "~/.server/page-cache";

/**
 * Dynamic responses (the dashboard, the sign-in pages, uncached public pages
 * with a cookie, actions) are written in ONE piece: the body is collected,
 * compressed at once and sent with its head in a single write, with a
 * Content-Length.
 *
 * Why: a response streamed in parts (React Router writes a document chunk by
 * chunk, and the `compression` middleware flushes each through zlib on the
 * thread pool) leaves a window where the head has gone out and the rest has
 * not. If the instance dies in that window (a crash, a SIGKILL, an OOM kill),
 * a proxy in front cannot retry the request on another instance — it has
 * already started answering — and the visitor gets a cut-off page
 * (tests/e2e/multi-instance.test.ts). Written whole, a response has either
 * not started (nginx retries a GET elsewhere: `proxy_next_upstream`) or has
 * been handed to the kernel complete. These responses are small (tens of KB)
 * and have no streamed parts, so nothing is shown later.
 */

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|rss\+xml|atom\+xml|manifest\+json|ld\+json)|image\/svg\+xml)/i;
/** Below this, compressing costs more than it saves. */
const MIN_COMPRESS = 1024;

type Chunk = string | Uint8Array;

function toBuffer(chunk: Chunk, encoding?: BufferEncoding): Buffer {
  return typeof chunk === "string" ? Buffer.from(chunk, encoding ?? "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function encodeBody(req: Request, res: Response, body: Buffer): Buffer {
  if (req.method === "HEAD" || body.length < MIN_COMPRESS) return body;
  if (res.statusCode === 204 || res.statusCode === 304 || res.getHeader("Content-Encoding")) return body;
  const type = String(res.getHeader("Content-Type") ?? "");
  if (!COMPRESSIBLE.test(type) || /\bno-transform\b/.test(String(res.getHeader("Cache-Control") ?? ""))) return body;
  const vary = String(res.getHeader("Vary") ?? "");
  if (!/\baccept-encoding\b|\*/i.test(vary)) res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  const encoding = pickEncoding(req.headers["accept-encoding"]);
  if (encoding === "br") {
    res.setHeader("Content-Encoding", "br");
    return zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  if (encoding === "gzip") {
    res.setHeader("Content-Encoding", "gzip");
    return zlib.gzipSync(body, { level: 6 });
  }
  return body;
}

export function wholeResponse(req: Request, res: Response, next: NextFunction) {
  const chunks: Buffer[] = [];
  const write = res.write;
  const end = res.end;
  const callWrite = (c: Buffer) => (write as (this: Response, c: Buffer) => boolean).call(res, c);
  const callEnd = (body?: Buffer, done?: () => void) =>
    (end as (this: Response, body?: Buffer, done?: () => void) => Response).call(res, body, done);

  res.write = function (
    chunk: Chunk,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ) {
    if (chunk != null) chunks.push(toBuffer(chunk, typeof encoding === "string" ? encoding : undefined));
    const done = typeof encoding === "function" ? encoding : callback;
    if (done) process.nextTick(done);
    return true;
  } as Response["write"];

  res.end = function (this: Response, chunk?: Chunk | (() => void), encoding?: BufferEncoding | (() => void), callback?: () => void) {
    if (typeof chunk === "function") {
      callback = chunk;
      chunk = undefined;
    } else if (typeof encoding === "function") {
      callback = encoding;
      encoding = undefined;
    }
    if (chunk != null) chunks.push(toBuffer(chunk, encoding as BufferEncoding | undefined));
    res.write = write;
    res.end = end;
    if (res.headersSent) {
      // Someone sent the head already (flushHeaders): nothing to gain, pass the body on.
      for (const c of chunks) callWrite(c);
      return callEnd(undefined, callback);
    }
    const body = encodeBody(req, res, Buffer.concat(chunks));
    if (!res.getHeader("Transfer-Encoding")) res.setHeader("Content-Length", body.length);
    return callEnd(body, callback);
  } as Response["end"];

  next();
}

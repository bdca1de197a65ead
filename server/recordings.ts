/**
 * Uploaded event recordings (`/recordings/{uuid}.{ext}`, issue 45): served
 * only for a published event that is over (db/events.ts recordingIsPublic),
 * streamed from storage (the bucket is asked for the same byte range), with
 * HTTP Range support (206 Partial Content) so a browser's player can seek.
 * A recording's captions (`/recordings/{uuid}.vtt`) are served on the same
 * terms as the recording they belong to, whole, as `text/vtt; charset=utf-8`.
 * Anything else is a plain-text 404; a store that does not answer a 503.
 * Not through React Router: its answers are written whole (whole-response.ts),
 * a recording is streamed.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { publicCaptions, publicRecordingSize } from "~/.server/events/recordings";
import { log } from "~/.server/log";
import { contentTypeOf, getStorage, StorageUnavailable } from "~/.server/storage/storage";
import { isCaptionsKey, isRecordingKey } from "~/lib/recordings";
import { sendText } from "./whole-response";

export const RECORDINGS_PREFIX = "/recordings/";

/** The one range of a `Range: bytes=…` header within `size` bytes; null for none, "unsatisfiable" for one outside it. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | "unsatisfiable" {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  // No header, several ranges or another unit: the whole file (RFC 9110 lets a server ignore a Range).
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    // The last N bytes.
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

export async function sendRecording(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  const key = `recordings/${(req.url ?? "").slice(RECORDINGS_PREFIX.length).split("?")[0]}`;
  if (isCaptionsKey(key)) return sendCaptions(req, res, key, requestId);
  if (!isRecordingKey(key)) return sendText(res, 404, "Not found");
  const storage = getStorage();
  let size: number | undefined;
  try {
    size = await publicRecordingSize(key);
  } catch (error) {
    log("warn", "recording not served", { id: requestId, key, error: (error as Error).message });
    res.setHeader("Retry-After", "10");
    return error instanceof StorageUnavailable
      ? sendText(res, 503, "Recording storage unavailable")
      : sendText(res, 503, "Please try again.");
  }
  if (size === undefined) return sendText(res, 404, "Not found");
  const range = parseRange(req.headers.range, size);
  res.setHeader("Accept-Ranges", "bytes");
  // An event's recording may be removed or replaced: a day in a cache, never "immutable".
  res.setHeader("Cache-Control", "public, max-age=86400");
  if (range === "unsatisfiable") {
    res.setHeader("Content-Range", `bytes */${size}`);
    return sendText(res, 416, "Range not satisfiable");
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  res.statusCode = range ? 206 : 200;
  res.setHeader("Content-Type", contentTypeOf(key));
  res.setHeader("Content-Length", end - start + 1);
  res.setHeader("Content-Disposition", "inline");
  if (range) res.setHeader("Content-Range", `bytes ${start}-${end}/${size}`);
  if (req.method === "HEAD" || size === 0) return void res.end();
  let body: NodeJS.ReadableStream | undefined;
  try {
    body = await storage.readRange(key, start, end);
  } catch (error) {
    log("warn", "recording not served", { id: requestId, key, error: (error as Error).message });
  }
  if (!body) {
    res.removeHeader("Content-Range");
    res.setHeader("Retry-After", "10");
    return sendText(res, 503, "Recording storage unavailable");
  }
  // A visitor who closes the page ends the stream (and the bucket's connection): not an error worth a line.
  await pipeline(body, res).catch(() => {});
}

/** A recording's captions, whole (a few hundred kilobytes at most), only while the recording itself is served. */
async function sendCaptions(req: IncomingMessage, res: ServerResponse, key: string, requestId: string): Promise<void> {
  let body: Buffer | undefined;
  try {
    body = await publicCaptions(key);
  } catch (error) {
    log("warn", "captions not served", { id: requestId, key, error: (error as Error).message });
    res.setHeader("Retry-After", "10");
    return sendText(res, 503, error instanceof StorageUnavailable ? "Recording storage unavailable" : "Please try again.");
  }
  if (!body) return sendText(res, 404, "Not found");
  res.statusCode = 200;
  res.setHeader("Content-Type", contentTypeOf(key));
  res.setHeader("Content-Length", body.byteLength);
  // Replaced captions get a new name; removed ones must stop being served: a day, as the recording.
  res.setHeader("Cache-Control", "public, max-age=86400");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Uploaded pictures (`/images/<key>`): only valid keys, only as images. A
 * responsive width is read like any picture, or made from its original if not
 * made yet (AVIF widths). Every miss is a plain-text 404; a store that does not
 * answer is a 503 (try again), never a 404 a browser or proxy would keep.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getImageVariant } from "~/.server/pictures/images";
import { log } from "~/.server/log";
import { contentTypeOf, getStorage, isValidKey, StorageUnavailable } from "~/.server/storage/storage";
import { parseVariantKey } from "~/lib/images";
import { sendText } from "./whole-response";

export const PICTURES_PREFIX = "/images/";
/** Files other than pictures (PDFs and documents a WordPress import brought): `/files/{name}` is the key `files/{name}`. */
export const FILES_PREFIX = "/files/";

export async function sendPicture(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  let key = "";
  try {
    const url = req.url ?? "";
    key = url.startsWith(FILES_PREFIX)
      ? `files/${decodeURIComponent(url.slice(FILES_PREFIX.length).split("?")[0])}`
      : decodeURIComponent(url.slice(PICTURES_PREFIX.length).split("?")[0]);
  } catch {
    /* malformed encoding: a miss */
  }
  let bytes: Buffer | undefined;
  try {
    bytes = parseVariantKey(key) ? await getImageVariant(key) : isValidKey(key) ? await getStorage().get(key) : undefined;
  } catch (error) {
    log("warn", "picture not served", { id: requestId, key, error: (error as Error).message });
    res.setHeader("Retry-After", "10");
    return error instanceof StorageUnavailable ? sendText(res, 503, "Picture storage unavailable") : sendText(res, 404, "Not found");
  }
  if (!bytes) return sendText(res, 404, "Not found");
  res.statusCode = 200;
  res.setHeader("Content-Type", contentTypeOf(key));
  res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
  // A PDF or picture opens in the browser; a document is downloaded.
  res.setHeader("Content-Disposition", /\.(pdf|jpg|png|webp|avif)$/.test(key) ? "inline" : "attachment");
  res.setHeader("Content-Length", bytes.length);
  res.end(req.method === "HEAD" ? undefined : bytes);
}

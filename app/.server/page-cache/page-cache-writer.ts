/**
 * The page cache's writer: makes a cached page's entry from a render (its
 * brotli and gzip bodies made once, a weak ETag, the CSP of its own inline
 * scripts) and writes an entry to a Node response with the public
 * `writeHead(status, headers)` and `end(body)`: one prebuilt flat header
 * list per encoding, so a hit does no header work of its own.
 *
 * CSP: cached pages are rendered without a nonce; their inline scripts are
 * allowed by SHA-256 hash in the Content-Security-Policy of that entry, so no
 * nonce is ever reused across responses (decision 0004).
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { PUBLIC_CACHE_CONTROL, type CachedPage, type HeaderLists } from "./page-cache";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** SHA-256 sources of every inline script in a page, for the CSP. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  const re = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    hashes.add(`'sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * Brotli quality of a cached page. A miss waits for it (and so does the warm-up after a save, page by
 * page): quality 9 takes about ten times as long for a page barely smaller (performance-history.md).
 */
const BROTLI_QUALITY = 8;

export async function makeEntry(response: {
  status: number;
  contentType: string;
  body: Buffer;
  baseCsp: (hashes: string[]) => string;
  maxAgeMs?: number;
  cacheControl?: string;
}): Promise<CachedPage> {
  const isHtml = response.contentType.startsWith("text/html");
  const hashes = isHtml ? inlineScriptHashes(response.body.toString("utf8")) : [];
  const [br, gz] = await Promise.all([
    brotli(response.body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: response.body.length },
    }),
    gzip(response.body, { level: 9 }),
  ]);
  const etag = `W/"${createHash("sha1").update(response.body).digest("base64url").slice(0, 22)}"`;
  return {
    status: response.status,
    contentType: response.contentType,
    body: response.body,
    br,
    gzip: gz,
    etag,
    csp: response.baseCsp(hashes),
    size: response.body.length + br.length + gz.length + 512,
    ...(response.maxAgeMs !== undefined ? { maxAgeMs: response.maxAgeMs, cacheControl: response.cacheControl } : {}),
  };
}

/** Picks the encoding the client accepts: br, then gzip, then none. */
export function pickEncoding(acceptEncoding: string | string[] | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  const value = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : acceptEncoding;
  if (/\bbr\b(?!;q=0(?:\.0+)?\b)/.test(value)) return "br";
  if (/\bgzip\b(?!;q=0(?:\.0+)?\b)/.test(value)) return "gzip";
  return null;
}

/** pickEncoding for the few Accept-Encoding values browsers send, remembered (bounded). */
const encodings = new Map<string, "br" | "gzip" | null>();
function encodingOf(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  let encoding = encodings.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = pickEncoding(acceptEncoding);
    if (encodings.size >= 64) encodings.clear();
    encodings.set(acceptEncoding, encoding);
  }
  return encoding;
}

function headerLists(entry: CachedPage, base: Record<string, string>): HeaderLists {
  const common = [
    ...Object.entries(base).flat(),
    "Content-Security-Policy",
    entry.csp,
    "Cache-Control",
    entry.cacheControl ?? PUBLIC_CACHE_CONTROL,
    "ETag",
    entry.etag,
    "Vary",
    "Accept-Encoding",
  ];
  const withBody = (body: Buffer, encoding?: string) => [
    ...common,
    "Content-Type",
    entry.contentType,
    ...(encoding ? ["Content-Encoding", encoding] : []),
    "Content-Length",
    String(body.length),
  ];
  return {
    identity: withBody(entry.body),
    br: withBody(entry.br, "br"),
    gzip: withBody(entry.gzip, "gzip"),
    notModified: common,
  };
}

/**
 * Writes a cached page (or 304) to a Node response. With `requestId` it is a
 * cache hit: X-Cache: HIT, X-Accel-Expires and X-Request-Id are sent with the
 * prebuilt headers (other callers set their own headers with setHeader first).
 */
export function sendCached(
  req: IncomingMessage,
  res: ServerResponse,
  entry: CachedPage,
  base: Record<string, string>,
  requestId?: string,
  /** X-Accel-Expires for a shared proxy in front (proxy-cache.ts), on a hit. */
  proxyExpires = "0",
) {
  const lists = (entry.headers ??= headerLists(entry, base));
  const ifNoneMatch = req.headers["if-none-match"];
  let status = entry.status;
  let headers: string[];
  let body: Buffer | undefined;
  if (ifNoneMatch && (ifNoneMatch === entry.etag || ifNoneMatch.split(/\s*,\s*/).includes(entry.etag))) {
    status = 304;
    headers = lists.notModified;
  } else {
    const encoding = encodingOf(req.headers["accept-encoding"]);
    body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.body;
    headers = encoding === "br" ? lists.br : encoding === "gzip" ? lists.gzip : lists.identity;
  }
  if (requestId !== undefined) headers = [...headers, "X-Cache", "HIT", "X-Accel-Expires", proxyExpires, "X-Request-Id", requestId];
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The public page cache: rendered HTML (and client-navigation `.data`
 * payloads) of public GET pages, kept in memory and answered before Express
 * or React Router run. Any content write clears it (content-events.ts; other
 * processes hear it through PostgreSQL LISTEN/NOTIFY, content-sync.ts).
 *
 * CSP: cached pages are rendered without a nonce; their inline scripts are
 * allowed by SHA-256 hash in the Content-Security-Policy of that entry, so no
 * nonce is ever reused across responses (docs/performance.md).
 *
 * Entries are stored with brotli and gzip bodies made once, a weak ETag
 * (304 on If-None-Match) and CDN-friendly Cache-Control. When the database is
 * unavailable, the last good copy of a page (kept when the cache is cleared)
 * is served, or a friendly 503 page.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { prepareHead, sendPreparedHead, type PreparedHead } from "./response-head";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

/** Paths of the public pages (and their `.data` twins for client navigation). */
const PUBLIC_PATH =
  /^\/(?:(?:|_root|team|insights|insurance|construction|cyber|disclaimer|accessibility|copyright|contact|privacy|lawyer\/[^/]+|post\/[^/]+)(?:\.data)?|sitemap\.xml|robots\.txt|insights\/feed\.xml)$/;
/** Query parameters the public pages read; anything else is dropped from the key and the render. */
const KEPT_PARAMS = ["author", "category", "page", "tab", "practice", "language", "role", "q", "_routes"];

type RawHeaders = { identity: string[]; br: string[]; gzip: string[]; notModified: string[] };

export type CachedPage = {
  status: number;
  contentType: string;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
  csp: string;
  size: number;
  storedAt?: number;
  /**
   * A shorter life than the cache's own, from the route's `s-maxage` (pages
   * holding the enquiry form's timing token: decision 0009); that route's
   * Cache-Control is then also what a CDN is told.
   */
  maxAgeMs?: number;
  cacheControl?: string;
  /** Set once a hit has started rendering this page again ahead of the end of its short life. */
  refreshing?: boolean;
  /** Prebuilt flat header lists (identity, br, gzip, 304), so a hit does no header work. */
  raw?: RawHeaders;
  /** The same for a hit: X-Cache: HIT and a last slot for the request id. */
  hit?: RawHeaders;
  /** A hit's head up to X-Cache, serialised once per encoding (response-head.ts). */
  hitHeads?: { identity: PreparedHead; br: PreparedHead; gzip: PreparedHead };
};

/** The cache key of a request, or null when the request is not for a cacheable public page. */
export function cacheKey(method: string | undefined, rawUrl: string | undefined): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  if (!rawUrl || rawUrl.length > 1024) return null;
  const q = rawUrl.indexOf("?");
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  if (!PUBLIC_PATH.test(path)) return null;
  if (q === -1) return path;
  const known = queryKeys.get(rawUrl);
  if (known !== undefined) return known;
  const params = new URLSearchParams(rawUrl.slice(q + 1));
  const kept: string[] = [];
  for (const name of KEPT_PARAMS) {
    const value = params.get(name);
    if (value !== null && value.length <= 200) kept.push(`${name}=${encodeURIComponent(value)}`);
  }
  const key = kept.length ? `${path}?${kept.join("&")}` : path;
  // Kept for the next request of the same address (a hot page's hits skip the parsing); emptied when full.
  if (queryKeys.size >= QUERY_KEYS_MAX) queryKeys.clear();
  queryKeys.set(rawUrl, key);
  return key;
}
/** Keys of addresses with a query string already worked out (raw request URL → key). */
const queryKeys = new Map<string, string>();
const QUERY_KEYS_MAX = 1000;

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
 * How long before the end of a short life (a route's `s-maxage`) a hit starts
 * rendering the page again in the background: the copy it has is served
 * meanwhile — never past its life — so visitors of a page holding the
 * enquiry form do not wait for a render every few seconds.
 */
export const REFRESH_AHEAD_MS = 1500;

export class PageCache {
  private entries = new Map<string, CachedPage>();
  private lastGood = new Map<string, CachedPage>();
  /** The most recently used key: asking for it again needs no reordering (a hot page hit after hit). */
  private newest: string | undefined;
  private bytes = 0;
  generation = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = 5000,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxAgeMs = 60 * 60 * 1000,
  ) {}

  get size() {
    return this.entries.size;
  }

  get(key: string, now = Date.now()): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (entry && now - (entry.storedAt ?? now) > (entry.maxAgeMs ?? this.maxAgeMs)) {
      // Pages also depend on the date (the copyright year): re-render now and then.
      this.entries.delete(key);
      this.bytes -= entry.size;
      // Still the last good copy if the database is down when it is next rendered.
      this.lastGood.delete(key);
      this.lastGood.set(key, entry);
      if (this.lastGood.size > this.maxEntries) this.lastGood.delete(this.lastGood.keys().next().value as string);
      if (this.newest === key) this.newest = undefined;
      return undefined;
    }
    if (entry && key !== this.newest) {
      // Refresh recency (Map keeps insertion order: oldest first).
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry;
  }

  /**
   * True once for an entry with a short life that is in its last
   * REFRESH_AHEAD_MS: the caller then renders the page again (and stores it)
   * while this copy is still being served.
   */
  dueForRefresh(entry: CachedPage, now = Date.now()): boolean {
    if (entry.maxAgeMs === undefined || entry.refreshing) return false;
    if (now - (entry.storedAt ?? now) <= entry.maxAgeMs - REFRESH_AHEAD_MS) return false;
    entry.refreshing = true;
    return true;
  }

  /** The last good copy of a page, also after the cache was cleared. */
  getLastGood(key: string): CachedPage | undefined {
    return this.entries.get(key) ?? this.lastGood.get(key);
  }

  /** Stores an entry unless the cache was cleared since `generation` was read. */
  set(key: string, entry: CachedPage, generation: number): boolean {
    if (generation !== this.generation) return false;
    entry.storedAt ??= Date.now();
    const old = this.entries.get(key);
    if (old) this.bytes -= old.size;
    this.entries.set(key, entry);
    this.newest = key;
    this.bytes += entry.size;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, CachedPage];
      this.entries.delete(oldestKey);
      this.bytes -= oldest.size;
    }
    return true;
  }

  /** The keys of the `n` most recently used pages, most recent first. */
  recentKeys(n: number): string[] {
    const keys = [...this.entries.keys()];
    return keys.slice(Math.max(0, keys.length - n)).reverse();
  }

  clear() {
    this.generation++;
    if (this.entries.size) {
      this.lastGood = this.entries;
      // Keep last-good copies bounded by the same limits.
      while (this.lastGood.size > this.maxEntries) this.lastGood.delete(this.lastGood.keys().next().value as string);
    }
    this.entries = new Map();
    this.newest = undefined;
    this.bytes = 0;
  }
}

/**
 * What a route's own Cache-Control says for the page cache: "never" (private
 * or no-store), a shorter life (s-maxage below the cache's, with the header to
 * send on), or nothing (the cache's defaults).
 */
export function routeCachePolicy(
  cacheControl: string | null | undefined,
): { store: false } | { store: true; maxAgeMs?: number; cacheControl?: string } {
  if (!cacheControl) return { store: true };
  if (/(?:^|,)\s*(?:no-store|private)\b/i.test(cacheControl)) return { store: false };
  const sMaxAge = /(?:^|,)\s*s-maxage=(\d{1,7})\b/i.exec(cacheControl);
  if (!sMaxAge) return { store: true };
  return { store: true, maxAgeMs: Number(sMaxAge[1]) * 1000, cacheControl };
}

/**
 * Brotli quality of a cached page. A miss waits for it (and so does the warm-up after a save, page by
 * page): on the public pages quality 9 took 15-16 ms a page against 1.3-1.5 ms at 8, for 11-21 bytes
 * (0.1-0.15 %) less (docs/performance.md, 2026-11-27, "a miss waits for brotli").
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

/**
 * If-None-Match and Accept-Encoding read from the raw header list: reading
 * `req.headers` would build an object of every header for two of them.
 */
function conditionalHeaders(req: IncomingMessage): { ifNoneMatch?: string; acceptEncoding?: string } {
  const raw = req.rawHeaders;
  let ifNoneMatch: string | undefined;
  let acceptEncoding: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 13 && name.toLowerCase() === "if-none-match")
      ifNoneMatch = ifNoneMatch === undefined ? raw[i + 1] : `${ifNoneMatch}, ${raw[i + 1]}`;
    else if (name.length === 15 && name.toLowerCase() === "accept-encoding")
      acceptEncoding = acceptEncoding === undefined ? raw[i + 1] : `${acceptEncoding}, ${raw[i + 1]}`;
  }
  return { ifNoneMatch, acceptEncoding };
}

function rawHeaders(entry: CachedPage, base: Record<string, string>, extra: string[] = []): RawHeaders {
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
    ...extra,
  ];
  return {
    identity: withBody(entry.body),
    br: withBody(entry.br, "br"),
    gzip: withBody(entry.gzip, "gzip"),
    notModified: [...common, ...extra],
  };
}

/** The slots a hit's list ends with after X-Cache: X-Accel-Expires and X-Request-Id, names and values. */
const HIT_SLOTS = 4;

/**
 * Writes a cached page (or 304) to a Node response. With `requestId` it is a
 * cache hit: X-Cache: HIT and X-Request-Id are sent with the prebuilt headers
 * (other callers set their own headers with setHeader first).
 */
export function sendCached(
  req: IncomingMessage,
  res: ServerResponse,
  entry: CachedPage,
  base: Record<string, string>,
  requestId?: string,
  /** X-Accel-Expires for a shared proxy in front (proxy-cache.ts), on a hit. */
  proxyExpires = "0",
  now = Date.now(),
) {
  let lists: RawHeaders;
  if (requestId === undefined) lists = entry.raw ??= rawHeaders(entry, base);
  else lists = entry.hit ??= rawHeaders(entry, base, ["X-Cache", "HIT", "X-Accel-Expires", "0", "X-Request-Id", ""]);
  const { ifNoneMatch, acceptEncoding } = conditionalHeaders(req);
  let status = entry.status;
  let headers: string[];
  let body: Buffer | undefined;
  if (ifNoneMatch && (ifNoneMatch === entry.etag || ifNoneMatch.split(/\s*,\s*/).includes(entry.etag))) {
    status = 304;
    headers = lists.notModified;
  } else {
    const encoding = encodingOf(acceptEncoding);
    body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.body;
    headers = encoding === "br" ? lists.br : encoding === "gzip" ? lists.gzip : lists.identity;
  }
  if (requestId !== undefined) {
    // A hit with a body on a kept-alive connection: the head serialised once (response-head.ts).
    if (body && req.method === "GET") {
      const heads = (entry.hitHeads ??= {
        identity: prepareHead(entry.status, lists.identity.slice(0, -HIT_SLOTS)),
        br: prepareHead(entry.status, lists.br.slice(0, -HIT_SLOTS)),
        gzip: prepareHead(entry.status, lists.gzip.slice(0, -HIT_SLOTS)),
      });
      const head = body === entry.br ? heads.br : body === entry.gzip ? heads.gzip : heads.identity;
      if (sendPreparedHead(res, head, proxyExpires, requestId, body, now)) return;
    }
    // The request id goes in the list's last slot (the proxy expiry two before): writeHead reads the list at once and keeps no
    // reference to it, so the list is reused instead of copied for every hit.
    headers[headers.length - 1] = requestId;
    headers[headers.length - 3] = proxyExpires;
  }
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

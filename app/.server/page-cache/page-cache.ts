/**
 * The public page cache's store: rendered HTML (and client-navigation `.data`
 * payloads) of public GET pages, kept in memory and answered before React
 * Router runs (server/page-cache-tier.ts). Any content write clears it
 * (content-events.ts; other processes hear it through PostgreSQL
 * LISTEN/NOTIFY, content-sync.ts). When the database is unavailable, the last
 * good copy of a page (kept when the cache is cleared) is served, or a
 * friendly 503 page. Entries are made and written by page-cache-writer.ts.
 */

export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

/** Flat [name, value, …] header lists of an entry, one per encoding and one for 304. */
export type HeaderLists = { identity: string[]; br: string[]; gzip: string[]; notModified: string[] };

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
  /** Prebuilt flat header lists (identity, br, gzip, 304), made at the first send. */
  headers?: HeaderLists;
};

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

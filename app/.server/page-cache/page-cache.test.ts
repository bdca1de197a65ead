import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PageCache, REFRESH_AHEAD_MS, routeCachePolicy } from "./page-cache";
import { inlineScriptHashes, makeEntry, pickEncoding, sendCached } from "./page-cache-writer";

describe("CSP hashes of inline scripts", () => {
  it("hashes the exact text of inline scripts and ignores external ones", () => {
    const html = `<script src="/a.js"></script><script nonce="">window.x=1</script><script type="module">import "/b.js";</script>`;
    const sha = (t: string) => `'sha256-${createHash("sha256").update(t).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([sha("window.x=1"), sha('import "/b.js";')]);
  });
});

describe("PageCache", () => {
  const entry = (text: string) =>
    makeEntry({ status: 200, contentType: "text/html", body: Buffer.from(text), baseCsp: (h) => `script-src ${h.join(" ")}` });

  /** The contact form's page ("form") as stored for a route that asks for `s-maxage=5`: kept 5 seconds. */
  const shortLived = () => {
    const policy = routeCachePolicy("public, max-age=0, s-maxage=5");
    return makeEntry({
      status: 200,
      contentType: "text/html",
      body: Buffer.from("form"),
      baseCsp: () => "",
      ...(policy.store ? policy : {}),
    });
  };

  it("drops a render that started before the cache was cleared (no stale fill)", async () => {
    const cache = new PageCache();
    const generation = cache.generation;
    cache.clear(); // a save happened while the page was rendering
    expect(cache.set("/", await entry("old"), generation)).toBe(false);
    expect(cache.get("/")).toBeUndefined();
    expect(cache.set("/", await entry("new"), cache.generation)).toBe(true);
    expect(cache.get("/")?.body.toString()).toBe("new");
  });

  it("keeps the last good copy after a clear, for when the database is down", async () => {
    const cache = new PageCache();
    cache.set("/team", await entry("team page"), cache.generation);
    cache.clear();
    expect(cache.get("/team")).toBeUndefined();
    expect(cache.getLastGood("/team")?.body.toString()).toBe("team page");
  });

  it("evicts the least recently used entries past its limits", async () => {
    const cache = new PageCache(2);
    cache.set("/a", await entry("a"), cache.generation);
    cache.set("/b", await entry("b"), cache.generation);
    cache.get("/a");
    cache.set("/c", await entry("c"), cache.generation);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/c")).toBeDefined();
  });

  it("stores compressed bodies that decompress to the page and a stable weak ETag", async () => {
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const a = await entry("<p>hello</p>".repeat(100));
    const b = await entry("<p>hello</p>".repeat(100));
    expect(brotliDecompressSync(a.br).toString()).toBe("<p>hello</p>".repeat(100));
    expect(gunzipSync(a.gzip).toString()).toBe("<p>hello</p>".repeat(100));
    expect(a.etag).toMatch(/^W\/".+"$/);
    expect(a.etag).toBe(b.etag);
  });

  it("re-renders entries older than an hour (date-dependent content)", async () => {
    const cache = new PageCache();
    cache.set("/copyright", await entry("2026"), cache.generation);
    expect(cache.get("/copyright")).toBeDefined();
    expect(cache.get("/copyright", Date.now() + 61 * 60 * 1000)).toBeUndefined();
  });

  it("keeps a page whose route asks for a short s-maxage only that long, and tells a CDN the same", async () => {
    const policy = routeCachePolicy("public, max-age=0, s-maxage=5");
    expect(policy).toEqual({ store: true, maxAgeMs: 5000, cacheControl: "public, max-age=0, s-maxage=5" });
    const cache = new PageCache();
    const short = await shortLived();
    cache.set("/contact", short, cache.generation);
    const now = Date.now();
    expect(cache.get("/contact", now + 4000)).toBeDefined();
    expect(cache.get("/contact", now + 6000)).toBeUndefined();
    // Still the last good copy for a database outage.
    expect(cache.getLastGood("/contact")?.body.toString()).toBe("form");
    const headers: string[] = [];
    const res = { writeHead: (_s: number, h: string[]) => headers.push(...h), end: () => {} };
    sendCached({ method: "GET", headers: {}, rawHeaders: [] } as never, res as never, short, {});
    expect(headers[headers.indexOf("Cache-Control") + 1]).toBe("public, max-age=0, s-maxage=5");
  });

  it("asks once, in the last REFRESH_AHEAD_MS of a short life, for the page to be rendered again; never for ordinary pages", async () => {
    const cache = new PageCache();
    const short = await shortLived();
    const ordinary = await entry("team");
    cache.set("/contact", short, cache.generation);
    cache.set("/team", ordinary, cache.generation);
    const storedAt = short.storedAt!;
    expect(cache.dueForRefresh(short, storedAt + 5000 - REFRESH_AHEAD_MS - 100)).toBe(false);
    expect(cache.dueForRefresh(short, storedAt + 5000 - REFRESH_AHEAD_MS + 100)).toBe(true);
    // Once: the render under way replaces the entry.
    expect(cache.dueForRefresh(short, storedAt + 4900)).toBe(false);
    // The copy is still served until its life ends, and not after.
    expect(cache.get("/contact", storedAt + 4900)).toBe(short);
    expect(cache.get("/contact", storedAt + 5100)).toBeUndefined();
    expect(cache.dueForRefresh(ordinary, Date.now() + 59 * 60 * 1000)).toBe(false);
  });

  it("never stores a page whose route says private or no-store; default life otherwise", () => {
    expect(routeCachePolicy("private, no-store")).toEqual({ store: false });
    expect(routeCachePolicy("no-store")).toEqual({ store: false });
    expect(routeCachePolicy(null)).toEqual({ store: true });
    expect(routeCachePolicy("public, max-age=60")).toEqual({ store: true });
  });

  it("negotiates br, then gzip, then identity", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip")).toBe("gzip");
    expect(pickEncoding(undefined)).toBeNull();
  });
});

/**
 * The page cache in front of React Router: public GET pages are answered from
 * memory (app/.server/page-cache/page-cache.ts) — a hit synchronously, with one
 * `writeHead` and one `end` — and rendered once on a miss through React
 * Router's fetch handler, without a cookie or a nonce, then stored.
 *
 * After a content change (a save here, or in another process through NOTIFY)
 * the pages visitors used most recently are rendered again at once, one at a
 * time, instead of by the next visitor of each: that visitor, and a proxy
 * refreshing its copy at the end of the second (decision 0008), get the new
 * page from memory rather than waiting for a render. A further change starts
 * over.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "react-router";
import { createRequestHandler } from "react-router";
import { onContentChange } from "~/.server/db/content-events";
import { databaseAnswers } from "~/.server/db/client";
import { getEnv } from "~/.server/env";
import type { Limiter } from "~/.server/http/limiter";
import { log, logRequest } from "~/.server/log";
import { PageCache, routeCachePolicy, type CachedPage } from "~/.server/page-cache/page-cache";
import { cacheableRoutes, createCacheKeys } from "~/.server/page-cache/page-cache-routes";
import { inlineScriptHashes, makeEntry, sendCached } from "~/.server/page-cache/page-cache-writer";
import { proxyExpiry } from "~/.server/page-cache/proxy-cache";
import { routerContext } from "~/.server/http/request-context";
import { baseSecurityHeaders, contentSecurityPolicy } from "~/.server/http/security-headers";
import { unavailablePage } from "~/.server/http/unavailable-page";
import { redirectEngine, sendRedirect } from "~/.server/redirects/engine";
import { notFoundLog } from "~/.server/redirects/not-found";

/** Pages rendered again at once after a content change: the most recently used ones. */
const WARM_PAGES = 12;
const acceptFor = (key: string) => (key.includes(".data") ? "*/*" : "text/html");
/** What a cached render may be: HTML, a `.data` payload, XML (sitemap, feed) or plain text (robots.txt). */
const STORED_TYPES = /^(text\/html|text\/x-script|application\/xml|application\/rss\+xml|text\/plain)/;

/** `stored` is false when content changed during the render: that copy may already be out of date. */
type Rendered = { entry: CachedPage; stored: boolean } | { status: number; headers: [string, string][]; body: Buffer };

export type PageCacheTier = {
  cache: PageCache;
  /** Answers the request and returns true when it is for a page the cache keeps; false otherwise (nothing sent). */
  handle(req: IncomingMessage, res: ServerResponse, requestId: string, started: number): boolean;
};

export function createPageCacheTier(build: ServerBuild, options: { dynamicWork: Limiter; shuttingDown: () => boolean }): PageCacheTier {
  const cache = new PageCache();
  const cacheKey = createCacheKeys(cacheableRoutes(build.routes));
  const render = createRequestHandler(build, "production");
  const headers = baseSecurityHeaders();
  const origin = new URL(getEnv().publicUrl);

  /** Renders a public page once (no cookie, no nonce); stores it when it can be cached. */
  async function fill(key: string, accept: string): Promise<Rendered> {
    const generation = cache.generation;
    const request = new Request(new URL(key, origin), { headers: { accept } });
    const response = await render(request, routerContext({ clientIp: "", requestId: "", nonce: "" }));
    const contentType = response.headers.get("content-type") ?? "";
    const body = Buffer.from(await response.arrayBuffer());
    const policy = routeCachePolicy(response.headers.get("cache-control"));
    if (response.status === 200 && policy.store && STORED_TYPES.test(contentType)) {
      const entry = await makeEntry({
        status: 200,
        contentType,
        body,
        baseCsp: (hashes) => contentSecurityPolicy(hashes),
        maxAgeMs: policy.maxAgeMs,
        cacheControl: policy.cacheControl,
      });
      return { entry, stored: cache.set(key, entry, generation) };
    }
    if (response.status >= 500 && !(await databaseAnswers())) throw new Error("database unavailable");
    const kept: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== "content-encoding" && name !== "content-length" && name !== "transfer-encoding") kept.push([name, value]);
    });
    return { status: response.status, headers: kept, body };
  }

  /** One render per page at a time: concurrent misses of a page wait for the same render. */
  const inflight = new Map<string, Promise<Rendered>>();
  function renderOnce(key: string, accept: string): Promise<Rendered> {
    let pending = inflight.get(key);
    if (!pending) {
      pending = options.dynamicWork.run(() => fill(key, accept)).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  let warming = 0;
  async function warm(keys: string[], run: number) {
    // The redirects first: a page a new rule now redirects is not rendered into the cache again.
    await redirectEngine()?.reload();
    for (const key of keys) {
      if (run !== warming || options.shuttingDown()) return;
      if (redirectEngine()?.find(key, false)) continue;
      try {
        await renderOnce(key, acceptFor(key));
      } catch {
        return; // the database is not answering: visitors get the last good copy meanwhile
      }
    }
  }
  onContentChange(() => {
    const keys = cache.recentKeys(WARM_PAGES);
    cache.clear();
    const run = ++warming;
    // After every other listener of this change has run (the team memo is cleared by its own).
    if (keys.length) setImmediate(() => void warm(keys, run));
  });

  /** A response not from the cache: security headers, a CSP for its own inline scripts, never stored. */
  function sendUncached(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer) {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(inlineScriptHashes(body.toString("utf8"))));
    res.setHeader("Cache-Control", "no-store");
    res.statusCode = status;
    res.end(req.method === "HEAD" ? undefined : body);
  }

  const logLine = (req: IncomingMessage, status: number, started: number, requestId: string, state: string) =>
    logRequest(requestId, req.method, pathOf(req.url), status, performance.now() - started, state);

  /** A miss: rendered once (concurrent misses of a page wait for the same render), stored, sent. */
  async function sendMiss(req: IncomingMessage, res: ServerResponse, key: string, started: number, requestId: string) {
    res.setHeader("X-Request-Id", requestId);
    // No cached page: the redirects the hot path does not run (other spellings, queries, regular expressions).
    const moved = redirectEngine()?.find(req.url ?? "");
    if (moved) {
      sendRedirect(res, moved, headers, req.method);
      return logLine(req, res.statusCode, started, requestId, "redirect");
    }
    cache.misses++;
    try {
      const rendered = await renderOnce(key, acceptFor(key));
      if ("entry" in rendered) {
        res.setHeader("X-Cache", "MISS");
        // A render that began before a staff save is sent, but a proxy must not keep it.
        res.setHeader("X-Accel-Expires", rendered.stored ? proxyExpiry() : "0");
        sendCached(req, res, rendered.entry, headers);
        return logLine(req, res.statusCode, started, requestId, "miss");
      }
      // Not cacheable (404, redirect…): send as rendered, with the CSP of its own inline scripts.
      for (const [name, value] of rendered.headers) res.setHeader(name, value);
      sendUncached(req, res, rendered.status, rendered.body);
      if (rendered.status === 404) notFoundLog().note(req.url ?? "", req.headers.referer, req.headers.host ?? "");
      logLine(req, res.statusCode, started, requestId, "bypass");
    } catch (error) {
      // The database is down: the last good copy, or a friendly 503.
      const stale = cache.getLastGood(key);
      if (stale) {
        res.setHeader("X-Cache", "STALE");
        res.setHeader("X-Accel-Expires", proxyExpiry());
        sendCached(req, res, stale, headers);
        return logLine(req, res.statusCode, started, requestId, "stale");
      }
      log("error", "render failed", { id: requestId, error: (error as Error).message });
      res.setHeader("Retry-After", "5");
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      sendUncached(req, res, 503, Buffer.from(unavailablePage()));
      logLine(req, 503, started, requestId, "error");
    }
  }

  return {
    cache,
    handle(req, res, requestId, started) {
      const key = cacheKey(req.method, req.url);
      if (!key) return false;
      const now = Date.now();
      const hit = cache.get(key, now);
      if (!hit) {
        void sendMiss(req, res, key, started, requestId);
        return true;
      }
      cache.hits++;
      // A page with a short life (the enquiry form's pages) is rendered again shortly before it ends, in the
      // background: no visitor waits for that render. A failure leaves the copy to expire as usual.
      if (cache.dueForRefresh(hit, now)) renderOnce(key, acceptFor(key)).catch(() => undefined);
      sendCached(req, res, hit, headers, requestId, proxyExpiry(now));
      logLine(req, res.statusCode, started, requestId, "hit");
      return true;
    },
  };
}

/** The request's path (no query), as the request line of the log shows it. */
export function pathOf(url: string | undefined): string {
  if (!url) return "";
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

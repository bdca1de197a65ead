/**
 * The HTTP application (Express), bundled by Vite into build/server/index.js
 * and started by server.js. Owns: request ids and logs, security headers,
 * the cross-site check for state-changing requests, health endpoints,
 * uploaded pictures, static files, and React Router's request handler.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import { wholeResponse } from "./whole-response";
import { expressOnNodePrototypes } from "./express-prototypes";
import { requestShapes } from "./request-shapes";
import express, { type NextFunction, type Request, type Response } from "express";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "react-router";
import { onContentChange } from "~/.server/content-events";
import { cacheKey, inlineScriptHashes, makeEntry, PageCache, routeCachePolicy, sendCached, type CachedPage } from "~/.server/page-cache";
import { unavailablePage } from "~/.server/unavailable-page";
import { proxyExpiry } from "~/.server/proxy-cache";
import { createLimiter } from "~/.server/limiter";
import * as serverBuild from "virtual:react-router/server-build";
import { getDatabase } from "~/.server/db/client";
import { getEnv } from "~/.server/env";
import { log, logRequest, newRequestId } from "~/.server/log";
import { contentTypeOf, getStorage, isValidKey, StorageUnavailable } from "~/.server/storage";
import { getImageVariant } from "~/.server/images";
import { parseVariantKey } from "~/lib/images";
import { startServices, stopServices } from "~/.server/startup";
import { answerBeacon, isBeaconPost } from "~/.server/stats-beacon-http";
import { baseSecurityHeaders, contentSecurityPolicy, securityHeaders } from "~/.server/security-headers";

export { startServices, stopServices, requestShapes };

const state = { shuttingDown: false };

/** Dynamic work (renders, dashboard) admitted first come, first served. */
const dynamicWork = createLimiter(Number(process.env.DYNAMIC_CONCURRENCY ?? 8));

export function markShuttingDown() {
  state.shuttingDown = true;
}

function clientIp(req: Request): string {
  if (getEnv().TRUST_PROXY) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? "unknown";
}

/** Refuses state-changing requests that come from another site (403). */
export function sameOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (origin) {
    if (origin === "null") return false;
    try {
      const o = new URL(origin);
      const publicOrigin = new URL(getEnv().publicUrl).origin;
      return o.origin === publicOrigin || o.host === host;
    } catch {
      return false;
    }
  }
  const site = req.headers["sec-fetch-site"];
  return !site || site === "same-origin" || site === "none";
}

export function createApp(options: { static?: boolean } = {}) {
  const app = express();
  // Express's methods on Node's own prototypes, and the server's requests made with the properties Express adds:
  // a page-cache hit keeps its speed after Express has run (./express-prototypes, ./request-shapes).
  const shapes = requestShapes();
  expressOnNodePrototypes(
    app,
    shapes.IncomingMessage && shapes.ServerResponse
      ? { request: shapes.IncomingMessage.prototype, response: shapes.ServerResponse.prototype }
      : undefined,
  );
  app.disable("x-powered-by");
  app.set("trust proxy", getEnv().TRUST_PROXY);

  app.use((req, res, next) => {
    const requestId = newRequestId();
    const nonce = randomBytes(16).toString("base64");
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    res.locals.nonce = nonce;
    res.setHeader("X-Request-Id", requestId);
    for (const [name, value] of Object.entries(securityHeaders(nonce))) res.setHeader(name, value);
    res.on("finish", () => logRequest(requestId, req.method, req.path, res.statusCode, Number(process.hrtime.bigint() - started) / 1e6));
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.type("text/plain").send("ok");
  });

  app.get("/readyz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (state.shuttingDown) return void res.status(503).type("text/plain").send("shutting down");
    try {
      await Promise.race([getDatabase().ping(), new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 1000).unref())]);
      res.type("text/plain").send("ready");
    } catch {
      res.status(503).type("text/plain").send("database unavailable");
    }
  });

  // Static files are compressed as they stream; dynamic responses are written whole (./whole-response).
  app.use(compression({ filter: (req, res) => !res.locals.wholeResponse && compression.filter(req, res) }));

  // Dynamic responses (dashboard, sign-in, anything not from the page cache) are never
  // stored, unless the route set its own Cache-Control (set just before the head is sent).
  app.use((_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
      if (!this.getHeader("Cache-Control")) this.setHeader("Cache-Control", "private, no-store");
      return writeHead.apply(this, args);
    } as Response["writeHead"];
    next();
  });

  app.use((req, res, next) => {
    if (!["GET", "HEAD", "OPTIONS"].includes(req.method) && !sameOrigin(req)) {
      log("warn", "cross-site request refused", { id: res.locals.requestId, method: req.method, path: req.path });
      return void res.status(403).type("text/plain").send("Cross-site requests are not allowed.");
    }
    next();
  });

  // Uploaded pictures: only valid keys, only as images; every miss is a plain-text 404.
  app.use("/images/", async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let key = "";
    try {
      key = decodeURIComponent(req.url.split("?")[0].replace(/^\//, ""));
    } catch {
      /* malformed encoding: a miss */
    }
    // A responsive width is read like any picture, or made from its original if not made yet (AVIF ones).
    // A store that does not answer is a 503 (try again), never a 404 a browser or proxy would keep.
    let bytes: Buffer | undefined;
    try {
      bytes = parseVariantKey(key) ? await getImageVariant(key) : isValidKey(key) ? await getStorage().get(key) : undefined;
    } catch (error) {
      log("warn", "picture not served", { id: res.locals.requestId, key, error: (error as Error).message });
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Retry-After", "10");
      return void res
        .status(error instanceof StorageUnavailable ? 503 : 404)
        .type("text/plain")
        .send(error instanceof StorageUnavailable ? "Picture storage unavailable" : "Not found");
    }
    if (!bytes) {
      res.setHeader("Cache-Control", "no-store");
      return void res.status(404).type("text/plain").send("Not found");
    }
    res.setHeader("Content-Type", contentTypeOf(key));
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Content-Disposition", "inline");
    res.send(bytes);
  });

  if (options.static) {
    const client = path.resolve(process.env.BUILD_DIR ?? "build", "client");
    app.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(client, { maxAge: "1h", index: false }));
  }

  app.use((_req, res, next) => {
    // A client that goes away while waiting must not keep its slot.
    let gone = false;
    const onClose = () => (gone = true);
    res.once("close", onClose);
    void dynamicWork.acquire().then((release) => {
      res.off("close", onClose);
      if (gone || res.destroyed) return release();
      res.once("close", release);
      next();
    });
  });

  app.use((req, res, next) => {
    res.locals.wholeResponse = true;
    wholeResponse(req, res, next);
  });

  app.use(
    createRequestHandler({
      build: serverBuild,
      getLoadContext(req, res) {
        return { clientIp: clientIp(req), requestId: res.locals.requestId, nonce: res.locals.nonce };
      },
    }),
  );

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number })?.status;
    if (error instanceof URIError || (status && status >= 400 && status < 500)) {
      // Malformed URLs or bodies are the client's mistake, not a server error.
      if (!res.headersSent)
        res
          .status(status && status < 500 ? status : 400)
          .type("text/plain")
          .send("Bad request.");
      return;
    }
    log("error", "unhandled error", { id: res.locals.requestId, error: (error as Error)?.message });
    if (!res.headersSent) res.status(500).type("text/plain").send("Something went wrong on our side. Please try again.");
  });

  return app;
}

export { getEnv };

/** The request's path (no query), as the request line of the log shows it. */
function pathOf(url: string | undefined): string {
  if (!url) return "";
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function logLine(req: IncomingMessage, status: number, started: number, requestId: string, cache: string) {
  logRequest(requestId, req.method, pathOf(req.url), status, performance.now() - started, cache);
}

async function databaseAnswers(): Promise<boolean> {
  try {
    await Promise.race([getDatabase().ping(), new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 1000).unref())]);
    return true;
  } catch {
    return false;
  }
}

/** Pages rendered again at once after a content change: the most recently used ones. */
const WARM_PAGES = 12;
const acceptFor = (key: string) => (key.includes(".data") ? "*/*" : "text/html");

/**
 * The production request handler: public GET pages are answered from the
 * page cache (filled by rendering through React Router's fetch handler
 * without a nonce) before Express runs; everything else goes to Express.
 */
export function createServerHandler(build: ServerBuild) {
  const app = createApp({ static: true });
  const cache = new PageCache();
  const render = createFetchHandler(build, "production");
  const headers = baseSecurityHeaders();
  const origin = new URL(getEnv().publicUrl);
  const cacheEnabled = getEnv().PAGE_CACHE === "on";

  /** `stored` is false when content changed during the render: that copy may already be out of date. */
  type Rendered = { entry: CachedPage; stored: boolean } | { status: number; headers: [string, string][]; body: Buffer };

  /** Renders a public page once (no cookie, no nonce); stores it when it can be cached. */
  async function fill(key: string, accept: string): Promise<Rendered> {
    const generation = cache.generation;
    const request = new Request(new URL(key, origin), { headers: { accept } });
    const response = await render(request, { clientIp: "", requestId: "", nonce: "" });
    const contentType = response.headers.get("content-type") ?? "";
    const body = Buffer.from(await response.arrayBuffer());
    const policy = routeCachePolicy(response.headers.get("cache-control"));
    if (
      response.status === 200 &&
      policy.store &&
      /^(text\/html|text\/x-script|application\/xml|application\/rss\+xml|text\/plain)/.test(contentType)
    ) {
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
      pending = dynamicWork.run(() => fill(key, accept)).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  /**
   * After a content change (a save here, or in another process through NOTIFY) the
   * pages visitors used most recently are rendered again at once, one at a time,
   * instead of by the next visitor of each: that visitor, and a proxy refreshing
   * its copy at the end of the second (decision 0008), get the new page from
   * memory rather than waiting for a render. A further change starts over.
   */
  let warming = 0;
  async function warm(keys: string[], run: number) {
    for (const key of keys) {
      if (run !== warming || state.shuttingDown) return;
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
    if (cacheEnabled && keys.length) setImmediate(() => void warm(keys, run));
  });

  /** A response not from the cache: security headers, a CSP for its own inline scripts, never stored. */
  function sendUncached(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer) {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(inlineScriptHashes(body.toString("utf8"))));
    res.setHeader("Cache-Control", "no-store");
    res.statusCode = status;
    res.end(req.method === "HEAD" ? undefined : body);
  }

  /** A miss: rendered once (concurrent misses of a page wait for the same render), stored, sent. */
  async function sendMiss(req: IncomingMessage, res: ServerResponse, key: string, started: number, requestId: string) {
    res.setHeader("X-Request-Id", requestId);
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

  /**
   * A hit is answered here, synchronously: one lookup, one writeHead with a
   * prebuilt header list, one end, one log line (docs/performance.md).
   */
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    // Visit-statistics beacons: answered here, like a cache hit, without Express or React Router (decision 0020).
    if (isBeaconPost(req.method, req.url)) {
      const started = performance.now();
      const requestId = newRequestId();
      res.setHeader("X-Request-Id", requestId);
      const ip = clientIp(req as Request);
      return answerBeacon(req, res, {
        clientIp: ip,
        sameOrigin: sameOrigin(req as Request),
        headers,
        done: (status) => logLine(req, status, started, requestId, "beacon"),
      });
    }
    const key = cacheEnabled ? cacheKey(req.method, req.url) : null;
    if (!key) return void app(req as Request, res as Response);
    const started = performance.now();
    const requestId = newRequestId();
    const now = Date.now();
    const hit = cache.get(key, now);
    if (!hit) return void sendMiss(req, res, key, started, requestId);
    cache.hits++;
    // A page with a short life (the enquiry form's pages) is rendered again shortly before it ends, in the
    // background: no visitor waits for that render. A failure leaves the copy to expire as usual.
    if (cache.dueForRefresh(hit, now)) renderOnce(key, acceptFor(key)).catch(() => undefined);
    sendCached(req, res, hit, headers, requestId, proxyExpiry(now), now);
    logLine(req, res.statusCode, started, requestId, "hit");
  };
  return Object.assign(handler, { cache });
}

/** The production handler over this bundle's own server build. */
export function createProductionHandler() {
  return createServerHandler(serverBuild);
}

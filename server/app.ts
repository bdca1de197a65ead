/**
 * The HTTP application: a `node:http` request listener, bundled by Vite into
 * build/server/index.js and started by server.js. In order:
 *
 * 1. a visit-statistics beacon (app/.server/statistics/stats-beacon-http.ts, decision 0023), an
 *    exact redirect (one Map lookup, app/.server/redirects/engine.ts, decision 0025) or a
 *    page-cache hit (public GET pages, server/page-cache-tier.ts), answered at once;
 * 2. a request id, one JSON log line when the response finishes, and the
 *    security headers (a CSP nonce per response);
 * 3. `/healthz` and `/readyz`;
 * 4. the cross-site refusal of state-changing requests (403, nothing done;
 *    a route whose handle declares `crossSitePosts` takes a cross-site POST);
 * 5. uploaded pictures (`/images/…`), files (`/files/…`), event recordings (`/recordings/…`, streamed with Range) and the browser build's files;
 * 6. the rest of the redirects (a path in another spelling, rules with a query, regular
 *    expressions), then React Router (a 404 is counted in the 404 log), its answer written whole and compressed
 *    (server/whole-response.ts), with the request's address, id and nonce in
 *    its request context (app/.server/http/request-context.ts).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequest } from "@remix-run/node-fetch-server";
import { createRequestHandler, type ServerBuild } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";
import { databaseAnswers } from "~/.server/db/client";
import { getEnv } from "~/.server/env";
import { createLimiter } from "~/.server/http/limiter";
import { isWriteMethod } from "~/lib/http";
import { log, logRequest, newRequestId, setRequestLogSecrets } from "~/.server/log";
import { secretRoutePattern } from "~/lib/route-patterns";
import { routerContext } from "~/.server/http/request-context";
import { handlesByPattern, routeMatcher, routeTable, setSitePatterns } from "~/.server/http/route-table";
import { baseSecurityHeaders, securityHeaders } from "~/.server/http/security-headers";
import { startServices, stopServices } from "~/.server/http/startup";
import { answerBeacon, isBeaconRequest } from "~/.server/statistics/stats-beacon-http";
import { redirectEngine, sendRedirect } from "~/.server/redirects/engine";
import { notFoundLog } from "~/.server/redirects/not-found";
import { STATS_BEACON_PATH } from "~/lib/stats";
import { clientIp } from "./client-ip";
import { createPageCacheTier, pathOf } from "./page-cache-tier";
import { FILES_PREFIX, PICTURES_PREFIX, sendPicture } from "./pictures";
import { RECORDINGS_PREFIX, sendRecording } from "./recordings";
import { crossSiteRefused, sameOrigin } from "./same-origin";
import { staticFiles } from "./static-files";
import { sendText, sendWhole } from "./whole-response";

export { getEnv, startServices, stopServices };

const state = { shuttingDown: false };

/** Dynamic work (renders, dashboard) admitted first come, first served. */
const dynamicWork = createLimiter(Number(process.env.DYNAMIC_CONCURRENCY ?? 8));

export function markShuttingDown() {
  state.shuttingDown = true;
}

export type RequestListener = ((req: IncomingMessage, res: ServerResponse) => void) & {
  pageCache?: ReturnType<typeof createPageCacheTier>;
};

/**
 * The request listener over a server build. `pageCache` and `staticFiles` are
 * on in production; in development Vite serves the browser's files and every
 * page is rendered fresh.
 */
export function createListener(build: ServerBuild, options: { pageCache: boolean; staticFiles: boolean }): RequestListener {
  const env = getEnv();
  const handleRequest = createRequestHandler(build, env.NODE_ENV === "production" ? "production" : "development");
  // What each route declares (its permission, …), for the middleware that reads it by the matched pattern.
  const table = routeTable(build.routes);
  const handles = handlesByPattern(table);
  const routeOf = routeMatcher(build.routes);
  // The 404 log and the WordPress importer check paths against the site's own routes.
  setSitePatterns(table.map((r) => r.pattern));
  // A path holding a secret (a cancel or confirmation link's token) is logged as its route's pattern.
  setRequestLogSecrets(secretRoutePattern(table.map((r) => r.pattern)));
  const pageCache = options.pageCache ? createPageCacheTier(build, { dynamicWork, shuttingDown: () => state.shuttingDown }) : undefined;
  const files = options.staticFiles ? staticFiles() : undefined;
  const baseHeaders = baseSecurityHeaders();

  /** React Router, admitted by the limiter; a client that goes away while waiting does not keep its slot. */
  async function render(req: IncomingMessage, res: ServerResponse, requestId: string, nonce: string) {
    let gone = false;
    const onClose = () => (gone = true);
    res.once("close", onClose);
    const release = await dynamicWork.acquire();
    res.off("close", onClose);
    try {
      if (gone || res.destroyed) return;
      let request: Request;
      try {
        request = createRequest(req, res, { trustProxy: env.TRUST_PROXY });
      } catch {
        return sendText(res, 400, "Bad request."); // an address that is not a URL
      }
      const response = await handleRequest(request, routerContext({ clientIp: clientIp(req), requestId, nonce }, handles));
      if (!res.destroyed) await sendWhole(req, res, response);
    } finally {
      release();
    }
  }

  async function dynamic(req: IncomingMessage, res: ServerResponse, requestId: string, started: number) {
    const nonce = randomBytes(16).toString("base64");
    res.setHeader("X-Request-Id", requestId);
    for (const [name, value] of Object.entries(securityHeaders(nonce))) res.setHeader(name, value);
    const read = req.method === "GET" || req.method === "HEAD";
    res.on("finish", () => {
      logRequest(requestId, req.method, pathOf(req.url), res.statusCode, performance.now() - started);
      if (res.statusCode === 404 && read) notFoundLog().note(req.url ?? "", req.headers.referer, req.headers.host ?? "");
    });
    const path = pathOf(req.url);

    if (path === "/healthz") return sendText(res, 200, "ok");
    if (path === "/readyz") {
      if (state.shuttingDown) return sendText(res, 503, "shutting down");
      return (await databaseAnswers()) ? sendText(res, 200, "ready") : sendText(res, 503, "database unavailable");
    }
    if (isWriteMethod(req.method) && crossSiteRefused(req.method, routeOf(path), req.headers)) {
      log("warn", "cross-site request refused", { id: requestId, method: req.method, path });
      return sendText(res, 403, "Cross-site requests are not allowed.");
    }
    if (read && (path.startsWith(PICTURES_PREFIX) || path.startsWith(FILES_PREFIX))) return sendPicture(req, res, requestId);
    if (read && path.startsWith(RECORDINGS_PREFIX)) return sendRecording(req, res, requestId);
    if (read && files) {
      const missing = await new Promise<boolean>((resolve) => {
        res.once("close", () => resolve(false));
        files(req, res, () => resolve(true));
      });
      if (!missing) return;
    }
    const moved = read ? redirectEngine()?.find(req.url ?? "") : undefined;
    if (moved) return sendRedirect(res, moved, {}, req.method);
    await render(req, res, requestId, nonce);
  }

  const listener: RequestListener = (req, res) => {
    const started = performance.now();
    const requestId = newRequestId();
    if (isBeaconRequest(req.url)) {
      return answerBeacon(req, res, {
        clientIp: clientIp(req),
        sameOrigin: sameOrigin(req.headers),
        routeOf,
        headers: baseHeaders,
        requestId,
        done: (status) => logRequest(requestId, req.method, STATS_BEACON_PATH, status, performance.now() - started, "beacon"),
      });
    }
    // An exact redirect answers before the page cache: one Map lookup of the raw path (decision 0025).
    const redirects = redirectEngine();
    if (redirects?.size && (req.method === "GET" || req.method === "HEAD")) {
      const moved = redirects.fast(req.url ?? "");
      if (moved) {
        sendRedirect(res, moved, baseHeaders, req.method);
        return logRequest(requestId, req.method, pathOf(req.url), res.statusCode, performance.now() - started, "redirect");
      }
    }
    if (pageCache?.handle(req, res, requestId, started)) return;
    dynamic(req, res, requestId, started).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      // A malformed address or body is the client's mistake, not a server error.
      if (error instanceof URIError) return sendText(res, 400, "Bad request.");
      log("error", "unhandled error", { id: requestId, error: (error as Error)?.message });
      sendText(res, 500, "Something went wrong on our side. Please try again.");
    });
  };
  listener.pageCache = pageCache;
  return listener;
}

/** The production listener over this bundle's own server build. */
export function createProductionListener(): RequestListener {
  return createListener(serverBuild, { pageCache: getEnv().PAGE_CACHE === "on", staticFiles: true });
}

/** The development listener (server.js loads this module through Vite, which serves the browser's files). */
export function createDevelopmentListener(): RequestListener {
  return createListener(serverBuild, { pageCache: false, staticFiles: false });
}

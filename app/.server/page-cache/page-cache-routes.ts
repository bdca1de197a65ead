/**
 * Which requests the page cache may answer, read from the route table: a
 * route module that exports `handle = { pageCache: { params } }`
 * (lib/route-handle.ts) is a page the cache keeps, under its full path from
 * app/routes.ts, with the query parameters it reads (every other parameter is
 * left out of the cache key and of the render). A page's `.data` twin (React
 * Router's client navigation) is kept too, with its `_routes` parameter.
 * Nothing here lists pages or parameters: a new public route is cached when
 * it says so, and not otherwise.
 */
import type { ServerBuild } from "react-router";
import { routeTable } from "../http/route-table";

/** A cacheable route: its full path as a regular expression, and the query parameters it reads. */
export type CacheableRoute = { id: string; path: string; pattern: RegExp; params: readonly string[] };

function patternOf(path: string, page: boolean): RegExp {
  const segments = path === "/" ? [] : path.slice(1).split("/");
  const source = segments
    .map((segment) => {
      if (segment.startsWith(":") && !segment.endsWith("?")) return "[^/]+";
      if (/[:*?]/.test(segment)) throw new Error(`The page cache keeps fixed paths and :params only, not "${path}".`);
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  // A page also answers React Router's data requests: /team.data, and /_.data for the home page.
  const data = page ? (segments.length ? "(?:\\.data)?" : "(?:_\\.data)?") : "";
  return new RegExp(`^/${source}${data}$`);
}

/** The routes of a server build whose module asks the page cache to keep it. */
export function cacheableRoutes(routes: ServerBuild["routes"]): CacheableRoute[] {
  return routeTable(routes).flatMap((route) => {
    const pageCache = route.handle?.pageCache;
    return pageCache
      ? [{ id: route.id, path: route.pattern, pattern: patternOf(route.pattern, route.page), params: pageCache.params }]
      : [];
  });
}

/** Raw request URLs remembered with their key (a hot page's hits skip the parsing); emptied when full. */
const QUERY_KEYS_MAX = 1000;
/** Longer addresses are never cached. */
const MAX_URL = 1024;
const MAX_PARAM = 200;

/**
 * The cache key of a request, or null when the request is not for a page the
 * cache keeps: the path, and the parameters its route reads, in the route's
 * order, each kept once.
 */
export function createCacheKeys(
  routes: readonly CacheableRoute[],
): (method: string | undefined, rawUrl: string | undefined) => string | null {
  const queryKeys = new Map<string, string>();
  return (method, rawUrl) => {
    if (method !== "GET" && method !== "HEAD") return null;
    if (!rawUrl || rawUrl.length > MAX_URL) return null;
    const q = rawUrl.indexOf("?");
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const route = routes.find((r) => r.pattern.test(path));
    if (!route) return null;
    if (q === -1) return path;
    const known = queryKeys.get(rawUrl);
    if (known !== undefined) return known;
    const params = new URLSearchParams(rawUrl.slice(q + 1));
    const names = path.endsWith(".data") ? [...route.params, "_routes"] : route.params;
    const kept: string[] = [];
    for (const name of names) {
      const value = params.get(name);
      if (value !== null && value.length <= MAX_PARAM) kept.push(`${name}=${encodeURIComponent(value)}`);
    }
    const key = kept.length ? `${path}?${kept.join("&")}` : path;
    if (queryKeys.size >= QUERY_KEYS_MAX) queryKeys.clear();
    queryKeys.set(rawUrl, key);
    return key;
  };
}

/**
 * The route table of a server build (React Router's `build.routes`, made from
 * app/routes.ts), with each route's full path pattern as React Router writes
 * it in a middleware's `pattern` ("/dashboard/lawyer/:slug") and its module's
 * `handle` (lib/route-handle.ts). What the page cache keeps and what the
 * dashboard's guard asks for are read from here, never listed elsewhere.
 */
import type { ServerBuild } from "react-router";
import type { RouteHandle } from "~/lib/route-handle";
import { patternRegex } from "~/lib/route-patterns";
import { processServices } from "../services";

type Route = NonNullable<ServerBuild["routes"][string]>;

export type TableRoute = {
  id: string;
  /** The full path pattern: "/", "/team", "/dashboard/lawyer/:slug". */
  pattern: string;
  handle: RouteHandle | undefined;
  /** A page (it renders a component), not a resource route. */
  page: boolean;
  /** The ids of the routes around it, outermost first. */
  parents: string[];
};

export function routeTable(routes: ServerBuild["routes"]): TableRoute[] {
  const table: TableRoute[] = [];
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const parts: string[] = [];
    const parents: string[] = [];
    for (let r: Route | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) {
      if (r.path) parts.unshift(r.path);
      if (r !== route) parents.unshift(r.id);
    }
    table.push({
      id: route.id,
      pattern: "/" + parts.join("/").replace(/^\/+|\/+$/g, ""),
      handle: route.module.handle as RouteHandle | undefined,
      page: "default" in route.module,
      parents,
    });
  }
  return table;
}

/** The handle of the route a pattern names (the leaf of a request, as middleware sees it). */
export function handlesByPattern(table: readonly TableRoute[]): Map<string, RouteHandle | undefined> {
  const map = new Map<string, RouteHandle | undefined>();
  // A layout shares its pattern with its index route: the deepest route (the page itself) wins.
  for (const route of [...table].sort((a, b) => a.parents.length - b.parents.length)) map.set(route.pattern, route.handle);
  return map;
}

/**
 * The route a path goes to, ranked as React Router ranks routes (a static
 * segment before a parameter, a parameter before `*`; ties in the order of
 * app/routes.ts): a function over a build's routes, its patterns compiled
 * once (React Router's `matchRoutes` flattens and ranks the whole tree on
 * every call, too slow to run for every beacon), each by lib/route-patterns.ts
 * `patternRegex`, the reading the 404 log and the request log use too. The
 * leaf's table entry (a layout's index route, not the layout), or undefined
 * when none matches.
 */
export function routeMatcher(routes: ServerBuild["routes"]): (pathname: string) => TableRoute | undefined {
  const parents = new Set(Object.values(routes).flatMap((r) => (r?.parentId ? [r.parentId] : [])));
  const compiled = routeTable(routes)
    .filter((route) => !parents.has(route.id))
    .map((route, order) => {
      const segments = route.pattern.split("/").filter(Boolean);
      // As React Router scores: a segment that is a parameter alone scores 3; one with more (":slug.ics") counts as static.
      const score =
        segments.reduce((n, segment) => n + (segment === "*" ? -2 : /^:[\w-]+$/.test(segment) ? 3 : 10), segments.length) +
        (routes[route.id]?.index ? 2 : 0);
      return { route, order, score, match: patternRegex(route.pattern, routes[route.id]?.caseSensitive === true) };
    })
    .sort((a, b) => b.score - a.score || a.order - b.order);
  return (pathname) => compiled.find((c) => c.match.test(pathname))?.route;
}

/**
 * The route patterns of the running site (set by the server from its build,
 * or by a script from app/routes.ts): what the 404 log and the WordPress
 * importer check paths against (lib/route-patterns.ts).
 */
export function setSitePatterns(patterns: readonly string[]) {
  processServices().sitePatterns = patterns;
}

export function sitePatterns(): readonly string[] {
  return processServices().sitePatterns ?? [];
}

/**
 * The route table of a server build (React Router's `build.routes`, made from
 * app/routes.ts), with each route's full path pattern as React Router writes
 * it in a middleware's `pattern` ("/dashboard/lawyer/:slug") and its module's
 * `handle` (lib/route-handle.ts). What the page cache keeps and what the
 * dashboard's guard asks for are read from here, never listed elsewhere.
 */
import { matchRoutes, type ServerBuild } from "react-router";
import type { RouteHandle } from "~/lib/route-handle";

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
 * The route a path goes to, as React Router ranks them (a static segment
 * before a parameter, a parameter before `*`): a function over a build's
 * routes. The leaf's table entry (a layout's index route, not the layout), or
 * undefined when no route matches.
 */
export function routeMatcher(routes: ServerBuild["routes"]): (pathname: string) => TableRoute | undefined {
  const table = new Map(routeTable(routes).map((r) => [r.id, r]));
  type Node = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: Node[] };
  const nodes = new Map<string, Node>();
  for (const r of Object.values(routes)) {
    if (r) nodes.set(r.id, { id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, children: [] });
  }
  const top: Node[] = [];
  for (const r of Object.values(routes)) {
    if (!r) continue;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    (parent ? parent.children : top).push(nodes.get(r.id)!);
  }
  // matchRoutes wants no `children` on an index route (which may have a path: `prefix("dashboard", [index(…)])`).
  const shaped = (list: Node[]): object[] =>
    list.map((n) =>
      n.index
        ? { id: n.id, index: true, path: n.path, caseSensitive: n.caseSensitive }
        : { id: n.id, path: n.path, caseSensitive: n.caseSensitive, children: shaped(n.children) },
    );
  const tree = shaped(top) as Parameters<typeof matchRoutes>[0];
  return (pathname) => {
    const matches = matchRoutes(tree, pathname);
    const leaf = matches?.[matches.length - 1];
    return leaf ? table.get(leaf.route.id!) : undefined;
  };
}

/**
 * Whether a route parameter's name says it holds a secret (a token, a key, a
 * code, a signature…): its value must never reach a log, the statistics or
 * another screen. Used by the visit statistics (a page with one is counted
 * under its pattern) and checked for every route by
 * tests/integration/route-secrets.test.ts.
 */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

const SECRET_PARAM = /token|key|code|secret|signature|sig$|hash|password|nonce|otp|invite|invitation|reset/i;

/** The parameters of a pattern ("/subscribe/confirm/:token" → ["token"]; a splat is "*"). */
export function patternParams(pattern: string): string[] {
  return pattern.split("/").flatMap((part) => (part.startsWith(":") ? [part.slice(1).replace(/\?$/, "")] : part === "*" ? ["*"] : []));
}

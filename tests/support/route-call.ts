/**
 * Calling route loaders and actions in tests as the server does: through the
 * dashboard guard (the layout's middleware) when the request is for a route
 * under the dashboard layout, with React Router's request context.
 */
import type { RouterContextProvider } from "react-router";
import { routerContext, requestInfo, servicesOf, type RouteHandles } from "~/.server/http/request-context";
import { handlesByPattern, routeTable } from "~/.server/http/route-table";
import { routeModules } from "./route-modules";

/**
 * What a loader or action answered: its status; for a Response (a redirect, a 404) its Location and headers and
 * no data (`{}`); for `data(…, { status })` or plain data, the data (and `data()`'s headers).
 */
export type RouteResult<D extends Record<string, unknown> = Record<string, unknown>> = {
  status: number;
  location: string | null;
  headers: Headers;
  data: D;
};

/** The data most actions answer: a status message in words and, on a refused form, the fields' errors. */
export type ActionAnswer = { status?: { tone: string; text: string }; errors?: Record<string, string>; [key: string]: unknown };

/** A route module as a test loads it by its file name. */
export type RouteModule = { loader?: (args: never) => Promise<unknown>; action?: (args: never) => Promise<unknown> };

/** React Router's request context for a request from `clientIp`, as the server makes it. */
export function testContext(clientIp = "127.0.0.1") {
  return routerContext({ clientIp, requestId: "t", nonce: "n" });
}

export const TEST_ROUTE_CONTEXT = testContext();

type Prepared = {
  handles: RouteHandles;
  /** The dashboard pattern of each loader and action of a route under the dashboard layout. */
  patterns: Map<unknown, string>;
  layout: { loader: unknown; paths: { pattern: string; match: RegExp }[] };
  guard: (args: unknown, next: () => Promise<unknown>) => Promise<unknown>;
  /** The root route's middleware (the request's services: app/root.tsx). */
  root: ((args: unknown, next: () => Promise<unknown>) => Promise<unknown>)[];
};

let prepared: Promise<Prepared> | undefined;
function prepare(): Promise<Prepared> {
  prepared ??= (async () => {
    const modules = await routeModules();
    const table = routeTable(modules);
    const patterns = new Map<unknown, string>();
    const paths: Prepared["layout"]["paths"] = [];
    for (const route of table.filter((r) => r.parents.includes("routes/admin/layout"))) {
      const module = modules[route.id]!.module as { loader?: unknown; action?: unknown };
      if (module.loader) patterns.set(module.loader, route.pattern);
      if (module.action) patterns.set(module.action, route.pattern);
      paths.push({ pattern: route.pattern, match: new RegExp(`^${route.pattern.replace(/:\w+/g, "[^/]*")}$`) });
    }
    const layout = modules["routes/admin/layout"]!.module as unknown as { loader: unknown; middleware: Prepared["guard"][] };
    const root = ((await import("~/root")) as unknown as { middleware: Prepared["root"] }).middleware;
    return { handles: handlesByPattern(table), patterns, layout: { loader: layout.loader, paths }, guard: layout.middleware[0], root };
  })();
  return prepared;
}

/**
 * Calls a loader or action with `args` ({ request, params, context }) as React
 * Router would: through the root route's middleware (the context's services
 * become the request's), and a loader or action of a route under the dashboard
 * layout passes the dashboard guard first, with that route's pattern (which may
 * throw, as it does on the server). Returns or throws what the route (or the
 * guard) does.
 */
export async function guarded<F extends (args: never) => unknown>(fn: F, args: unknown): Promise<Awaited<ReturnType<F>>> {
  const given = args as { request: Request; params?: Record<string, string>; context?: RouterContextProvider };
  const { handles, patterns, layout, guard, root } = await prepare();
  const context = routerContext(requestInfo(given.context ?? TEST_ROUTE_CONTEXT), handles, servicesOf(given.context));
  const call = { ...given, params: given.params ?? {}, context };
  const url = new URL(given.request.url);
  // The route as React Router would have matched it (the layout's own loader runs for whichever dashboard page the address is for).
  const pattern =
    patterns.get(fn) ??
    (fn === layout.loader ? (layout.paths.find((p) => p.match.test(url.pathname))?.pattern ?? "/dashboard") : undefined);
  const run = () => (fn as unknown as (args: unknown) => unknown)(call) as Promise<Awaited<ReturnType<F>>>;
  // React Router's pattern has no leading slash ("dashboard/lawyer/:slug").
  const route = pattern ? () => guard({ ...call, pattern: pattern.slice(1), url }, run) : run;
  // The root's middleware first (the context's services for the rest of the request), as on the server.
  const chain = root.reduceRight<() => Promise<unknown>>(
    (next, middleware) => () => middleware({ ...call, pattern: "", url }, next),
    route,
  );
  return (await chain()) as Awaited<ReturnType<F>>;
}

/**
 * Calls a route's loader or action as the server would (through the
 * dashboard guard for a dashboard route), and reads what it answered: a thrown
 * or returned Response (a redirect, a 404), `data(…, { status })`, or plain
 * data (200).
 */
export async function callRoute<D extends Record<string, unknown> = Record<string, unknown>>(
  fn: (args: never) => Promise<unknown>,
  request: Request,
  params: Record<string, string> = {},
  context: RouterContextProvider = TEST_ROUTE_CONTEXT,
): Promise<RouteResult<D>> {
  let out: unknown;
  try {
    out = await guarded(fn, { request, params, context });
  } catch (thrown) {
    out = thrown;
  }
  if (out instanceof Response) return { status: out.status, location: out.headers.get("Location"), headers: out.headers, data: {} as D };
  // An exception that is not an answer (a bug, an outage) is the test's failure, as it is a 500 on the server.
  if (out instanceof Error) throw out;
  const d = out as { data: D; init?: { status?: number; headers?: HeadersInit } | null };
  if (d && typeof d === "object" && "init" in d)
    return { status: d.init?.status ?? 200, location: null, headers: new Headers(d.init?.headers), data: d.data };
  return { status: 200, location: null, headers: new Headers(), data: out as D };
}

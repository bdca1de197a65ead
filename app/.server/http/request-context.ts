/**
 * What the server knows about a request beyond the Request itself: the
 * client's address (the proxy's X-Forwarded-For when TRUST_PROXY), the
 * request id of its log line, and the CSP nonce of its response. The HTTP
 * server (server/app.ts) puts it in React Router's request context
 * (`routerContext`); loaders, actions, middleware and entry.server read it
 * with `requestInfo(context)`.
 *
 * The same context carries the services (database, auth, storage, job queue:
 * services.ts): `context.get(servicesContext)`. The server puts the process's
 * there; a test may put its own (`routerContext(info, handles, createServices({ database }))`).
 * The root route's middleware (`bindRequestServices`) makes them the request's
 * for every query its loaders and actions run.
 */
import { createContext, RouterContextProvider, type MiddlewareFunction } from "react-router";
import type { RouteHandle } from "~/lib/route-handle";
import { processServices, withServices, type Services } from "../services";

export type RequestInfo = { clientIp: string; requestId: string; nonce: string };

/** The `context` argument of a loader, action or middleware. */
export type RequestContext = Readonly<RouterContextProvider>;

/** The handles of the route table by full path pattern (app/.server/http/route-table.ts). */
export type RouteHandles = ReadonlyMap<string, RouteHandle | undefined>;

const NONE: RequestInfo = { clientIp: "", requestId: "", nonce: "" };
const requestInfoContext = createContext<RequestInfo>(NONE);
const routeHandlesContext = createContext<RouteHandles>(new Map());

/** The services a loader, action or middleware uses (the process's unless the context was made with others). */
export const servicesContext = createContext<Services>(processServices());

/**
 * The root route's middleware (app/root.tsx): the context's services are the current ones (services.ts,
 * `currentServices`) for the rest of the request, so the database every query of its loaders and actions reads
 * (`db()`), the storage, the mail and the job queue are the context's.
 */
export const bindRequestServices: MiddlewareFunction<Response> = ({ context }, next) => withServices(context.get(servicesContext), next);

/** The request context React Router hands to every middleware, loader and action of one request. */
export function routerContext(
  info: RequestInfo,
  handles: RouteHandles = new Map(),
  services: Services = processServices(),
): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  context.set(routeHandlesContext, handles);
  context.set(servicesContext, services);
  return context;
}

/**
 * The handle of the route React Router matched for this request, by its
 * pattern (a middleware's `pattern`: "dashboard/lawyer/:slug", with or
 * without a leading slash).
 */
export function routeHandle(context: RequestContext, pattern: string): RouteHandle | undefined {
  return context.get(routeHandlesContext).get("/" + pattern.replace(/^\/+|\/+$/g, ""));
}

/** The handles of every route by full path pattern, as the server read them from its build. */
export function routeHandles(context: RequestContext): RouteHandles {
  return context.get(routeHandlesContext);
}

/** The services of a request's context (the process's for a context that is not React Router's). */
export function servicesOf(context: RequestContext | undefined): Services {
  return context instanceof RouterContextProvider ? context.get(servicesContext) : processServices();
}

export function requestInfo(context: RequestContext | undefined): RequestInfo {
  return context instanceof RouterContextProvider ? context.get(requestInfoContext) : NONE;
}

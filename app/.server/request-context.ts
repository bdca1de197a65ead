/**
 * What the server knows about a request beyond the Request itself: the
 * client's address (the proxy's X-Forwarded-For when TRUST_PROXY), the
 * request id of its log line, and the CSP nonce of its response. The HTTP
 * server (server/app.ts) puts it in React Router's request context
 * (`routerContext`); loaders, actions, middleware and entry.server read it
 * with `requestInfo(context)`.
 */
import { createContext, RouterContextProvider } from "react-router";

export type RequestInfo = { clientIp: string; requestId: string; nonce: string };

/** The `context` argument of a loader, action or middleware. */
export type RequestContext = Readonly<RouterContextProvider>;

const NONE: RequestInfo = { clientIp: "", requestId: "", nonce: "" };
const requestInfoContext = createContext<RequestInfo>(NONE);

/** The request context React Router hands to every middleware, loader and action of one request. */
export function routerContext(info: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  return context;
}

export function requestInfo(context: RequestContext | undefined): RequestInfo {
  return context instanceof RouterContextProvider ? context.get(requestInfoContext) : NONE;
}

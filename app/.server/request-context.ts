/**
 * What the server knows about a request beyond the Request itself: the
 * client's address (the proxy's X-Forwarded-For when TRUST_PROXY), the
 * request id of its log line, and the CSP nonce of its response. Loaders,
 * actions and entry.server read it with `requestInfo(context)`, never from
 * the context's shape, so the way it is carried can change in one place.
 */
export type RequestInfo = { clientIp: string; requestId: string; nonce: string };

declare module "react-router" {
  interface AppLoadContext extends RequestInfo {}
}

export function requestInfo(context: unknown): RequestInfo {
  const info = context as Partial<RequestInfo> | undefined;
  return { clientIp: info?.clientIp ?? "", requestId: info?.requestId ?? "", nonce: info?.nonce ?? "" };
}

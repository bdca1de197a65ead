/**
 * Calls a route's loader or action as the server would, and reads what it
 * answered: a thrown or returned Response (a redirect, a 404), `data(…, { status })`,
 * or plain data (200).
 */
export type RouteResult = { status: number; location?: string | null; data?: unknown };

import { routerContext } from "~/.server/request-context";

/** React Router's request context for a request from `clientIp`, as the server makes it. */
export function testContext(clientIp = "127.0.0.1") {
  return routerContext({ clientIp, requestId: "t", nonce: "n" });
}

export const TEST_ROUTE_CONTEXT = testContext();

export async function callRoute(
  fn: (args: never) => Promise<unknown>,
  request: Request,
  params: Record<string, string> = {},
): Promise<RouteResult> {
  let out: unknown;
  try {
    out = await fn({ request, params, context: TEST_ROUTE_CONTEXT } as never);
  } catch (thrown) {
    out = thrown;
  }
  if (out instanceof Response) return { status: out.status, location: out.headers.get("Location") };
  const d = out as { data: unknown; init?: { status?: number } | null };
  if (d && typeof d === "object" && "init" in d) return { status: d.init?.status ?? 200, data: d.data };
  return { status: 200, data: out };
}

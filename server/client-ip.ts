/** The client's address: the first X-Forwarded-For address behind a trusted proxy (TRUST_PROXY), else the socket's peer. */
import type { IncomingMessage } from "node:http";
import { getEnv } from "~/.server/env";

export function clientIp(req: IncomingMessage): string {
  if (getEnv().TRUST_PROXY) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? "unknown";
}

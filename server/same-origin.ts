/** The cross-site refusal: a state-changing request must come from this site (403 otherwise, nothing done). */
import type { IncomingHttpHeaders } from "node:http";
import { getEnv } from "~/.server/env";

export function sameOrigin(headers: IncomingHttpHeaders): boolean {
  const origin = headers.origin;
  const host = headers.host;
  if (origin) {
    if (origin === "null") return false;
    try {
      const o = new URL(origin);
      const publicOrigin = new URL(getEnv().publicUrl).origin;
      return o.origin === publicOrigin || o.host === host;
    } catch {
      return false;
    }
  }
  const site = headers["sec-fetch-site"];
  return !site || site === "same-origin" || site === "none";
}

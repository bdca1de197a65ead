/** The cross-site refusal: a state-changing request must come from this site (403 otherwise, nothing done). */
import type { IncomingHttpHeaders } from "node:http";
import { getEnv } from "~/.server/env";
import { isWriteMethod } from "~/lib/http";
import { ONE_CLICK_PATH } from "~/lib/subscriptions";

let known = { publicUrl: "", origin: "" };
/** PUBLIC_URL's origin, worked out again only when PUBLIC_URL changes (tests). */
function publicOrigin(): string {
  const publicUrl = getEnv().publicUrl;
  if (known.publicUrl !== publicUrl) known = { publicUrl, origin: new URL(publicUrl).origin };
  return known.origin;
}

export function sameOrigin(headers: IncomingHttpHeaders): boolean {
  const origin = headers.origin;
  const host = headers.host;
  if (origin) {
    if (origin === "null") return false;
    // The usual case, the site's own origin as browsers write it, needs no parsing (every beacon asks).
    if (origin === publicOrigin()) return true;
    try {
      const o = new URL(origin);
      return o.origin === publicOrigin() || o.host === host;
    } catch {
      return false;
    }
  }
  const site = headers["sec-fetch-site"];
  return !site || site === "same-origin" || site === "none";
}

/**
 * Whether a request is refused as cross-site. The one exception: a POST to an
 * RFC 8058 one-click unsubscribe address (/subscribe/one-click/<signed token>)
 * comes from the recipient's mail provider, cross-site by nature; the token
 * in its path is what authorises it, and it can only unsubscribe.
 */
export function crossSiteRefused(method: string | undefined, path: string, headers: IncomingHttpHeaders): boolean {
  if (!isWriteMethod(method) || sameOrigin(headers)) return false;
  return !(method === "POST" && ONE_CLICK_PATH.test(path));
}

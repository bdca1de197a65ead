/** The cross-site refusal: a state-changing request must come from this site (403 otherwise, nothing done). */
import type { IncomingHttpHeaders } from "node:http";
import { getEnv } from "~/.server/env";
import type { TableRoute } from "~/.server/http/route-table";
import { isWriteMethod } from "~/lib/http";

let known = { publicUrl: "", origin: "" };
/** PUBLIC_URL's origin, worked out again only when PUBLIC_URL changes (tests). */
function publicOrigin(): string {
  const publicUrl = getEnv().publicUrl;
  if (known.publicUrl !== publicUrl) known = { publicUrl, origin: new URL(publicUrl).origin };
  return known.origin;
}

/**
 * Whether a request comes from this site's own pages. A browser's
 * `Sec-Fetch-Site: same-origin` says so whatever its `Origin` (a page sent
 * with `Referrer-Policy: no-referrer` posts its forms with `Origin: null`;
 * no page can make a browser write a false `Sec-Fetch-*` header). Otherwise
 * the `Origin` header decides: this site's origin, or the Host it was sent to.
 * `Origin: null` (an opaque origin: a no-referrer page in a browser without
 * `Sec-Fetch-Site`, or a sandboxed frame anywhere) counts as this site's only
 * when `nullOrigin` is allowed (a route whose path holds a secret token,
 * `crossSiteRefused`) and no `Sec-Fetch-Site` says it came from elsewhere.
 * Without either header (a tool, not a browser page) the request passes.
 */
export function sameOrigin(headers: IncomingHttpHeaders, options: { nullOrigin?: boolean } = {}): boolean {
  const origin = headers.origin;
  const host = headers.host;
  const site = headers["sec-fetch-site"];
  if (site === "same-origin") return true;
  if (origin) {
    if (origin === "null") return options.nullOrigin === true && (!site || site === "none");
    // The usual case, the site's own origin as browsers write it, needs no parsing (every beacon asks).
    if (origin === publicOrigin()) return true;
    try {
      const o = new URL(origin);
      return o.origin === publicOrigin() || o.host === host;
    } catch {
      return false;
    }
  }
  return !site || site === "none";
}

/**
 * Whether a request is refused as cross-site. `route` is the route its path
 * goes to (route-table.ts `routeMatcher`), and its handle may widen what
 * passes, for a POST only:
 * - `tokenInPath`: the path holds a secret token (the confirmation and
 *   preferences links). Those pages send `Referrer-Policy: no-referrer`, so a
 *   browser without `Sec-Fetch-Site` posts their forms with `Origin: null`:
 *   taken as the site's own (another site cannot know the token).
 * - `crossSitePosts`: any origin (the RFC 8058 one-click unsubscribe, posted
 *   by the recipient's mail provider, cross-site by nature; the token in its
 *   path is what authorises it).
 */
export function crossSiteRefused(method: string | undefined, route: TableRoute | undefined, headers: IncomingHttpHeaders): boolean {
  if (!isWriteMethod(method)) return false;
  const post = method === "POST";
  if (sameOrigin(headers, { nullOrigin: post && route?.handle?.tokenInPath === true })) return false;
  return !(post && route?.handle?.crossSitePosts === true);
}

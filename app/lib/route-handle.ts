/**
 * What a route module tells the rest of the app about itself, in its
 * `handle` export (`export const handle = { … } satisfies RouteHandle`):
 *
 * - `hydrate`: the page runs React in the browser (the dashboard, the sign-in
 *   pages); every other page is server-rendered HTML (lib/hydrate.ts).
 * - `permission`: what a dashboard route needs (lib/permissions.ts;
 *   "signed-in" for any staff member, e.g. My account). The dashboard's
 *   guard (app/.server/admin/guard.server.ts) checks it before any loader or
 *   action of the route runs; a dashboard route without one is refused (403).
 * - `twoFactorSetup`: the route opens while an owner requires two-factor
 *   sign-in and the person has not set it up yet (the set-up screens).
 * - `pageCache`: a public page the page cache may keep, and the query
 *   parameters it reads (any other parameter is left out of the cache key and
 *   of the render).
 * - `statistics`: whether a visit-statistics beacon from this page counts, and
 *   under what key (decision 0023); without it the page is not counted.
 *   "path": under its own path (no query string); a path with a parameter
 *   counts only for a page the site publishes (a lawyer's or an article's),
 *   any other is counted as not found. "pattern": under the route's pattern
 *   ("/subscribe/confirm/:token"), for a page whose address holds a secret —
 *   a route with a parameter named like a secret (route-table.ts
 *   `isSecretParam`, lib/route-patterns.ts) is never stored with its value, whatever it declares.
 *   "not-found": the site's 404 page, counted as "not found" without its
 *   address.
 * - `crossSitePosts`: the route takes a POST from another site (RFC 8058
 *   one-click unsubscribe, posted by the recipient's mail provider): the
 *   server's cross-site refusal lets it through (server/same-origin.ts). The
 *   secret in its path is what authorises the request.
 * - `tokenInPath`: the route's path holds a secret token (the confirmation
 *   and preferences links) and its page sends `Referrer-Policy: no-referrer`:
 *   a POST from that page with `Origin: null` is taken as the site's own
 *   (server/same-origin.ts); another site cannot know the token.
 * - `nav`: a dashboard screen of its own: its entry in the dashboard's top
 *   navigation (`label`) and its card on the dashboard's home page (`title`,
 *   in the spec's words, and `text`), at position `order` in both. Shown to
 *   whoever has the route's `permission` (app/.server/admin/screens.server.ts);
 *   the only list of the dashboard's screens.
 */
import type { Permission } from "./permissions";

export type RouteHandle = {
  hydrate?: boolean;
  permission?: Permission | "signed-in";
  twoFactorSetup?: boolean;
  pageCache?: { params: readonly string[] };
  statistics?: "path" | "pattern" | "not-found";
  crossSitePosts?: boolean;
  tokenInPath?: boolean;
  nav?: DashboardNav;
};

/** The pictures a dashboard screen's home card may show (components/admin/screen-icon.tsx draws them). */
export type ScreenIcon =
  | "team"
  | "articles"
  | "events"
  | "trash"
  | "hours"
  | "headers"
  | "enquiries"
  | "subscribers"
  | "statistics"
  | "redirects"
  | "import"
  | "staff"
  | "activity"
  | "outbox"
  | "jobs"
  | "account";

export type DashboardNav = {
  /** The entry in the top navigation: "Team". */
  label: string;
  /** The home card's heading: "Manage Team" (the label when absent). */
  title?: string;
  /** The home card's line: what the screen is for. */
  text: string;
  /** Position in the navigation and among the home cards, lowest first. */
  order: number;
  icon: ScreenIcon;
};

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
 */
import type { Permission } from "./permissions";

export type RouteHandle = {
  hydrate?: boolean;
  permission?: Permission | "signed-in";
  twoFactorSetup?: boolean;
  pageCache?: { params: readonly string[] };
};

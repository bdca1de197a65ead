/**
 * What a route module tells the rest of the app about itself, in its
 * `handle` export (`export const handle = { … } satisfies RouteHandle`):
 *
 * - `hydrate`: the page runs React in the browser (the dashboard, the sign-in
 *   pages); every other page is server-rendered HTML (lib/hydrate.ts).
 * - `permission`: a dashboard route's permission (lib/permissions.ts;
 *   "signed-in" for any staff member, e.g. My account).
 * - `pageCache`: a public page the page cache may keep, and the query
 *   parameters it reads (any other parameter is left out of the cache key and
 *   of the render).
 */
import type { Permission } from "./permissions";

export type RouteHandle = {
  hydrate?: boolean;
  permission?: Permission | "signed-in";
  pageCache?: { params: readonly string[] };
};

/** Whether the page cache would store a GET of this path (previews must not be), by the route table of app/routes.ts. */
import { cacheableRoutes, createCacheKeys } from "~/.server/page-cache/page-cache-routes";
import { routeModules } from "./route-modules";

const cacheKey = routeModules().then((table) => createCacheKeys(cacheableRoutes(table)));

export async function isCacheable(path: string): Promise<boolean> {
  return (await cacheKey)("GET", path) !== null;
}

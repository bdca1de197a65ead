/** Whether the page cache would store a GET of this path (previews must not be). */
import { cacheKey } from "~/.server/page-cache";

export function isCacheable(path: string): boolean {
  return cacheKey("GET", path) !== null;
}

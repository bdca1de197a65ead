/**
 * A preview of a post page (staff, or a share-a-preview link: app/.server/content/preview.ts):
 * the post page's own module, without its page-cache handle, so the page cache
 * never answers it (a preview depends on who asks and is never stored).
 */
export { default, ErrorBoundary, headers, loader, meta } from "./post";

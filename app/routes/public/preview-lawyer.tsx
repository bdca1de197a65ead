/**
 * A preview of a lawyer page (staff, or a share-a-preview link: app/.server/content/preview.ts):
 * the lawyer page's own module, without its page-cache handle, so the page cache
 * never answers it (a preview depends on who asks and is never stored).
 */
export { default, ErrorBoundary, headers, loader, meta } from "./lawyer";

/**
 * A staff preview of an event's page (any state; app/.server/content/preview.ts):
 * the event page's own module, without its page-cache handle, so the page
 * cache never answers it.
 */
export { default, ErrorBoundary, headers, loader, meta } from "./event";

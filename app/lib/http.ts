/** Whether a request with this method may change something (anything but GET, HEAD and OPTIONS). */
export function isWriteMethod(method: string | undefined): boolean {
  const m = method?.toUpperCase();
  return m !== "GET" && m !== "HEAD" && m !== "OPTIONS";
}

/**
 * The headers of a page whose form posts to itself: the action's when it set
 * its own caching (a personal answer, not stored), else the loader's.
 */
export function actionOrLoaderHeaders({ actionHeaders, loaderHeaders }: { actionHeaders: Headers; loaderHeaders: Headers }): Headers {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

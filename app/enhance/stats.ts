/**
 * Visit statistics (decision 0023): a beacon to this site, nothing else.
 * No cookie, no storage, no other host. A browser that sends Global Privacy
 * Control sends nothing. A prerendered page sends its view only once it is
 * shown (`whenActive`); a prefetched one runs no script at all.
 *
 *   v  the page was shown (with document.referrer; on /search, the number of
 *      results, read from `data-search-results`); again when it comes back
 *      from the back/forward cache (then not as the start of a visit)
 *   l  the page was left (`pagehide`): how long it was visible, in ms
 *   o  a tel:/mailto: link, a contact card (…/vcard) or a PDF was clicked
 *
 * POST /stats/beacon takes them (app/.server/statistics/stats-beacon-http.ts, the one endpoint).
 */
import { closestFrom, whenActive } from "./when-active";

export function enhanceStats() {
  if ((navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl) return;
  const p = location.pathname + location.search;
  const send = (data: object) => navigator.sendBeacon("/stats/beacon", JSON.stringify({ p, ...data }));
  let shown = false;
  let visible = 0;
  let since = 0;
  const pause = () => {
    if (since) visible += performance.now() - since;
    since = 0;
  };
  const view = (r: string) => {
    shown = true;
    visible = 0;
    since = document.visibilityState == "visible" ? performance.now() : 0;
    const n = document.querySelector<HTMLElement>("[data-search-results]")?.dataset.searchResults;
    send({ k: "v", r, n: n ? +n : undefined });
  };
  whenActive(() => view(document.referrer));
  document.addEventListener("visibilitychange", () => (document.visibilityState == "visible" ? (since = performance.now()) : pause()));
  addEventListener("pagehide", () => {
    pause();
    if (shown) send({ k: "l", d: Math.round(visible) });
    shown = false;
  });
  addEventListener("pageshow", (event) => event.persisted && view(location.href));
  document.addEventListener("click", (event) => {
    const a = closestFrom<HTMLAnchorElement>(event, "a[href]");
    const h = a && (a.origin == location.origin ? a.pathname : a.href);
    if (h && /^(tel|mailto):|\/vcard$|\.pdf$/i.test(h)) send({ k: "o", h });
  });
}

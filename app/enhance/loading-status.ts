/**
 * The spec's loading texts ("Loading team members...", "Loading articles...",
 * "Loading article...", "Loading...") while the next page is on its way: a
 * click on a link to another public page that has not shown it after 400 ms
 * puts the text for that page in the frame's status region (polite). Cached
 * and prerendered pages arrive before that; a slow network shows it. Back to
 * a page kept in memory (back/forward cache), the text is gone.
 */
import { loadingTextFor } from "~/lib/site";
import { closestFrom, isModifiedClick } from "./when-active";

const SHOW_AFTER_MS = 400;

export function enhanceLoadingStatus() {
  const region = document.querySelector<HTMLElement>("[data-loading-status]");
  if (!region) return;
  let timer = 0;
  const clear = () => {
    clearTimeout(timer);
    region.textContent = "";
  };
  document.addEventListener("click", (event) => {
    const link = closestFrom<HTMLAnchorElement>(event, "a[href]");
    if (!link || event.defaultPrevented || isModifiedClick(event)) return;
    if (link.origin !== location.origin || link.hasAttribute("download") || (link.target && link.target !== "_self")) return;
    if (link.pathname === location.pathname && link.search === location.search) return; // same page (a #fragment)
    const text = loadingTextFor(link);
    if (!text) return;
    clearTimeout(timer);
    timer = window.setTimeout(() => (region.textContent = text), SHOW_AFTER_MS);
  });
  window.addEventListener("pagehide", () => clearTimeout(timer));
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) clear();
  });
}

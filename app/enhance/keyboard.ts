/**
 * Tab bars of links (practice tabs, the article filter: `data-arrow-keys`):
 * Left/Right move the focus to the previous/next link (wrapping), Home/End
 * to the first/last; Tab and Enter work as for any link.
 *
 * `data-keep-focus="name"`: after a link of that group loads its page, the
 * focus is on the same link of the new page (a tab or filter change keeps
 * the keyboard user's place, as a client-side change would).
 */
import { closestFrom, handover, isModifiedClick, whenActive } from "./when-active";

const KEPT = "keep-focus";

export function enhanceKeyboard() {
  document.addEventListener("keydown", (event) => {
    const link = closestFrom<HTMLAnchorElement>(event, "[data-arrow-keys] a");
    if (!link || event.altKey || event.ctrlKey || event.metaKey) return;
    const links = Array.from(link.closest("[data-arrow-keys]")!.querySelectorAll<HTMLAnchorElement>("a[href]"));
    const i = links.indexOf(link);
    const next =
      event.key === "ArrowRight"
        ? (i + 1) % links.length
        : event.key === "ArrowLeft"
          ? (i - 1 + links.length) % links.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? links.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    links[next].focus();
  });

  document.addEventListener("click", (event) => {
    const link = closestFrom<HTMLAnchorElement>(event, "[data-keep-focus] a[href]");
    if (!link || event.defaultPrevented || isModifiedClick(event)) return;
    handover.set(KEPT, { group: link.closest("[data-keep-focus]")!.getAttribute("data-keep-focus")!, href: link.getAttribute("href")! });
  });

  whenActive(() => {
    const kept = handover.take(KEPT);
    if (!kept) return;
    for (const group of document.querySelectorAll("[data-keep-focus]")) {
      if (group.getAttribute("data-keep-focus") !== kept.group) continue;
      for (const link of group.querySelectorAll<HTMLAnchorElement>("a[href]")) {
        if (link.getAttribute("href") === kept.href) return link.focus();
      }
    }
  });
}

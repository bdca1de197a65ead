/**
 * The home page's map (an outside service) loads when it comes near the
 * window, not with the page: a frame from another host is a new connection
 * the first paint would otherwise share the network with (Lighthouse counts
 * it before the first paint). The server renders a
 * holder with the frame's address and title, and the frame itself inside
 * <noscript> (`loading="lazy"`) for browsers without JavaScript.
 */
import { whenActive } from "./when-active";

function load(holder: HTMLElement) {
  if (holder.querySelector("iframe")) return;
  const frame = document.createElement("iframe");
  frame.title = holder.dataset.title ?? "";
  frame.src = holder.dataset.src ?? "";
  frame.loading = "lazy";
  frame.referrerPolicy = "no-referrer-when-downgrade";
  frame.width = "800";
  frame.height = "480";
  frame.className = holder.dataset.frameClass ?? "";
  holder.append(frame);
}

export function enhanceMapFrames() {
  const holders = [...document.querySelectorAll<HTMLElement>("[data-map-frame]")];
  if (!holders.length) return;
  whenActive(() => {
    if (typeof IntersectionObserver === "undefined") return holders.forEach(load);
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          load(entry.target as HTMLElement);
        }
      },
      { rootMargin: "600px 0px" },
    );
    for (const holder of holders) observer.observe(holder);
  });
}

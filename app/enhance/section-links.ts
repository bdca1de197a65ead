/**
 * Section scrolls (SPEC §2, §9): a link with `data-section` goes home (a page
 * load when elsewhere), waits 120 ms, then scrolls to the section's top
 * minus 30 px over 500 ms (650 ms with `data-section-slow`: hero and banner
 * links), and moves the focus to the section. `data-section="top"` (the
 * logo) scrolls home to the top. Under `prefers-reduced-motion` the scroll
 * is a jump. Without JavaScript the links are plain `/#about` anchors.
 */
import { HERO_SCROLL_MS, SCROLL_MS, SECTION_DELAY_MS, scrollPositionAt, sectionScrollTarget } from "~/lib/scroll";
import type { MenuControl } from "./header";
import { closestFrom, handover, isModifiedClick, whenActive } from "./when-active";

const PENDING = "section-scroll";
let animation = 0;

export const prefersReducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Scrolls the window to `to` over `duration` ms (eased); a jump under reduced motion. */
function animateScrollTo(to: number, duration: number): Promise<void> {
  const id = ++animation;
  const from = window.scrollY;
  if (prefersReducedMotion() || Math.abs(to - from) < 2) {
    window.scrollTo({ top: to, behavior: "instant" });
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const start = performance.now();
    const step = (now: number) => {
      if (id !== animation) return resolve(); // a newer scroll took over
      const elapsed = Math.max(0, now - start);
      window.scrollTo({ top: scrollPositionAt(from, to, elapsed, duration), behavior: "instant" });
      if (elapsed < duration) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

/** An element's top in the document, without transforms (a section still fading in is moved 12 px). */
function documentTop(element: HTMLElement): number {
  let top = 0;
  for (let el: HTMLElement | null = element; el; el = el.offsetParent as HTMLElement | null) top += el.offsetTop;
  return top;
}

async function scrollToSection(section: string, duration: number) {
  await delay(SECTION_DELAY_MS);
  const target = section === "top" ? null : document.getElementById(section);
  const maxScroll = document.documentElement.scrollHeight - window.innerHeight;
  await animateScrollTo(target ? sectionScrollTarget(documentTop(target), 0, maxScroll) : 0, duration);
  if (target) {
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }
}

export function enhanceSectionLinks(menu: MenuControl) {
  const onHome = location.pathname === "/";
  document.addEventListener("click", (event) => {
    const link = closestFrom<HTMLAnchorElement>(event, "a[data-section]");
    if (!link || event.defaultPrevented || isModifiedClick(event)) return;
    const section = link.dataset.section!;
    const duration = link.hasAttribute("data-section-slow") ? HERO_SCROLL_MS : SCROLL_MS;
    if (!onHome) {
      if (section === "top") return; // a plain link home: the page opens at its top
      // Go home; the home page runs the scroll (below). Without storage: the plain anchor.
      if (!handover.set(PENDING, { section, duration: String(duration) })) return;
      event.preventDefault();
      location.assign("/");
      return;
    }
    event.preventDefault();
    menu.close();
    void scrollToSection(section, duration);
  });
  if (onHome) {
    // Arrived from a section link of another page (once it is shown, if it was prerendered).
    whenActive(() => {
      const pending = handover.take(PENDING);
      if (pending?.section) void scrollToSection(pending.section, Number(pending.duration) || SCROLL_MS);
    });
  }
}

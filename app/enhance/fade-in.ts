/**
 * Sections fade in once when they become visible (SPEC §2: 20 to 30 %; here
 * 25 %, or a quarter of the viewport for sections taller than it). The server
 * renders every section visible; only sections still below the fold when
 * this runs are hidden (`fade-pending`) until they scroll into view. Nothing
 * happens under `prefers-reduced-motion`.
 */
import { prefersReducedMotion } from "./section-links";

export function enhanceFadeIns() {
  if (prefersReducedMotion() || typeof IntersectionObserver === "undefined") return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const tallEnough = entry.intersectionRect.height >= (entry.rootBounds?.height ?? window.innerHeight) * 0.25;
        if (entry.isIntersecting && (entry.intersectionRatio >= 0.25 || tallEnough)) {
          entry.target.classList.remove("fade-pending");
          observer.unobserve(entry.target);
        }
      }
    },
    { threshold: [0, 0.1, 0.25, 0.5] },
  );
  // Every position read before any class is changed: one layout, not one per section.
  const sections = [...document.querySelectorAll<HTMLElement>("#main .fade-section")];
  const fold = window.innerHeight;
  const below = sections.filter((section) => section.getBoundingClientRect().top > fold);
  for (const section of below) {
    section.classList.add("fade-pending");
    observer.observe(section);
  }
}

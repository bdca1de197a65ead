/**
 * Sections fade in once when they become visible (SPEC §2: 20 to 30 %; here
 * 25 %, or a quarter of the viewport for sections taller than it). The server
 * renders every section visible; only sections still below the fold when
 * this runs are hidden (`fade-pending`) until they scroll into view. Nothing
 * happens under `prefers-reduced-motion`.
 *
 * Where each section is comes from the observer's first report, made in the
 * browser's own rendering step: reading positions here would force the page's
 * first style and layout inside this script's task (a long task on a slow phone).
 */
import { prefersReducedMotion } from "./section-links";

export function enhanceFadeIns() {
  if (prefersReducedMotion() || typeof IntersectionObserver === "undefined") return;
  const seen = new WeakSet<Element>();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const section = entry.target;
        if (!seen.has(section)) {
          seen.add(section);
          // In the first view (even partly): shown as the server rendered it, no fade.
          if (entry.isIntersecting) observer.unobserve(section);
          else section.classList.add("fade-pending");
          continue;
        }
        const tallEnough = entry.intersectionRect.height >= (entry.rootBounds?.height ?? window.innerHeight) * 0.25;
        if (entry.isIntersecting && (entry.intersectionRatio >= 0.25 || tallEnough)) {
          section.classList.remove("fade-pending");
          observer.unobserve(section);
        }
      }
    },
    { threshold: [0, 0.1, 0.25, 0.5] },
  );
  for (const section of document.querySelectorAll<HTMLElement>("#main .fade-section")) observer.observe(section);
}

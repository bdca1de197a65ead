import { useEffect } from "react";
import { prefersReducedMotion } from "./scrolling";

/**
 * Sections fade in once when 25 % visible (SPEC §2: 20 to 30 %). The server
 * renders every section visible; after hydration only sections still below
 * the fold are hidden (`fade-pending`) until they scroll into view. Nothing
 * happens under `prefers-reduced-motion`.
 */
export function useFadeIn(key: string) {
  useEffect(() => {
    if (prefersReducedMotion() || typeof IntersectionObserver === "undefined") return;
    const reveal = (el: Element) => el.classList.remove("fade-pending");
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const tallEnough = entry.intersectionRect.height >= (entry.rootBounds?.height ?? window.innerHeight) * 0.25;
          if (entry.isIntersecting && (entry.intersectionRatio >= 0.25 || tallEnough)) {
            reveal(entry.target);
            observer.unobserve(entry.target);
          }
        }
      },
      { threshold: [0, 0.1, 0.25, 0.5] },
    );
    const sections = Array.from(document.querySelectorAll<HTMLElement>("#main .fade-section"));
    const pending: HTMLElement[] = [];
    for (const el of sections) {
      if (el.getBoundingClientRect().top > window.innerHeight) {
        el.classList.add("fade-pending");
        pending.push(el);
        observer.observe(el);
      }
    }
    return () => {
      observer.disconnect();
      pending.forEach(reveal);
    };
  }, [key]);
}

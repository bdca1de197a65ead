/**
 * Browser side of section scrolling: go home (when elsewhere), wait 120 ms,
 * then scroll to the section top minus 30 px over 500 ms (650 ms for hero and
 * banner links). Without JavaScript the same links are plain `/#section`
 * anchors. With `prefers-reduced-motion: reduce` the jump is instant.
 */
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { scrollPositionAt, SCROLL_MS, SECTION_DELAY_MS, sectionScrollTarget } from "~/lib/scroll";

let animation = 0;

export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Scrolls the window to `to` over `duration` ms (eased); instant under reduced motion. */
export function animateScrollTo(to: number, duration: number): Promise<void> {
  const id = ++animation;
  const from = window.scrollY;
  if (prefersReducedMotion() || duration <= 0 || Math.abs(to - from) < 2) {
    window.scrollTo({ top: to, behavior: "instant" as ScrollBehavior });
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const start = performance.now();
    const step = (now: number) => {
      if (id !== animation) return resolve(); // a newer scroll took over
      const elapsed = now - start;
      window.scrollTo({ top: scrollPositionAt(from, to, elapsed, duration), behavior: "instant" as ScrollBehavior });
      if (elapsed < duration) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

function maxScroll() {
  return document.documentElement.scrollHeight - window.innerHeight;
}

/** Returns `go(section, duration)`: home, 120 ms, then the scroll; `section` null means the top. */
export function useSectionScroll() {
  const navigate = useNavigate();
  return useCallback(
    async (section: string | null, duration = SCROLL_MS) => {
      if (window.location.pathname !== "/") await navigate("/");
      await delay(SECTION_DELAY_MS);
      const target = section ? document.getElementById(section) : null;
      const to = target ? sectionScrollTarget(target.getBoundingClientRect().top, window.scrollY, maxScroll()) : 0;
      await animateScrollTo(to, duration);
      if (target) {
        if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
        target.focus({ preventScroll: true });
      }
    },
    [navigate],
  );
}

/** True for clicks the browser should handle itself (new tab, download…). */
export function isModifiedClick(event: React.MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

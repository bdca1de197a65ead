/**
 * Section scrolling (SPEC §2, §9): go home, wait 120 ms, then scroll to the
 * section's top minus 30 px over 500 ms (650 ms for hero and banner links).
 */
export const SECTION_DELAY_MS = 120;
export const SECTION_OFFSET_PX = 30;
export const SCROLL_MS = 500;
export const HERO_SCROLL_MS = 650;
/** The navigation turns solid after this many pixels of scroll. */
export const NAV_SOLID_AFTER_PX = 5;

/** Ease in-out (cubic) over t in 0..1. */
export function easeInOutCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x < 0.5 ? 4 * x * x * x : 1 - Math.pow(-2 * x + 2, 3) / 2;
}

/** The document scroll position that puts an element `offset` px below the top of the viewport. */
export function sectionScrollTarget(elementTop: number, scrollY: number, maxScroll: number, offset = SECTION_OFFSET_PX): number {
  return Math.round(Math.min(Math.max(0, elementTop + scrollY - offset), Math.max(0, maxScroll)));
}

/** The position at time `elapsed` of a scroll from `from` to `to` over `duration` ms. */
export function scrollPositionAt(from: number, to: number, elapsed: number, duration: number): number {
  if (duration <= 0) return to;
  return from + (to - from) * easeInOutCubic(elapsed / duration);
}

/** Which section a link like "/#contact" points to ("contact"), or undefined. */
export function sectionOfHref(href: string): string | undefined {
  const match = /^\/#([A-Za-z][\w-]*)$/.exec(href);
  return match?.[1];
}

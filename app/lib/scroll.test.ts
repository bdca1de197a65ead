import { describe, expect, it } from "vitest";
import {
  easeInOutCubic,
  HERO_SCROLL_MS,
  SCROLL_MS,
  scrollPositionAt,
  SECTION_DELAY_MS,
  SECTION_OFFSET_PX,
  sectionOfHref,
  sectionScrollTarget,
} from "./scroll";

describe("section scrolling", () => {
  it("uses the constants of the spec", () => {
    expect([SECTION_DELAY_MS, SECTION_OFFSET_PX, SCROLL_MS, HERO_SCROLL_MS]).toEqual([120, 30, 500, 650]);
  });
  it("targets the section top minus 30 px, within the page", () => {
    expect(sectionScrollTarget(800, 0, 5000)).toBe(770);
    expect(sectionScrollTarget(-200, 1000, 5000)).toBe(770);
    expect(sectionScrollTarget(10, 0, 5000)).toBe(0);
    expect(sectionScrollTarget(4000, 2000, 5000)).toBe(5000);
  });
  it("eases from start to end", () => {
    expect(easeInOutCubic(0)).toBe(0);
    expect(easeInOutCubic(1)).toBe(1);
    expect(easeInOutCubic(0.5)).toBeCloseTo(0.5);
    expect(scrollPositionAt(0, 100, 0, 500)).toBe(0);
    expect(scrollPositionAt(0, 100, 500, 500)).toBe(100);
    expect(scrollPositionAt(0, 100, 900, 500)).toBe(100);
    expect(scrollPositionAt(0, 100, 10, 0)).toBe(100);
  });
  it("reads the section of a link", () => {
    expect(sectionOfHref("/#about")).toBe("about");
    expect(sectionOfHref("/#contact")).toBe("contact");
    expect(sectionOfHref("/team")).toBeUndefined();
  });
});

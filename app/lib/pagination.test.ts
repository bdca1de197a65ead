import { describe, expect, it } from "vitest";
import { clampPage, pageCount, pageOffset, PAGE_SIZE, parsePage } from "./pagination";

describe("pagination maths", () => {
  it("shows six articles a page", () => {
    expect(PAGE_SIZE).toBe(6);
  });
  it("counts pages (at least one, even when empty)", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(1)).toBe(1);
    expect(pageCount(6)).toBe(1);
    expect(pageCount(7)).toBe(2);
    expect(pageCount(12)).toBe(2);
    expect(pageCount(13)).toBe(3);
    expect(pageCount(100_000)).toBe(16_667);
  });
  it("parses the page of the URL: whole numbers from 1, anything else is page 1", () => {
    expect(parsePage("3")).toBe(3);
    expect(parsePage(null)).toBe(1);
    expect(parsePage("")).toBe(1);
    expect(parsePage("0")).toBe(1);
    expect(parsePage("-2")).toBe(1);
    expect(parsePage("2.5")).toBe(1);
    expect(parsePage("abc")).toBe(1);
    expect(parsePage("1e3")).toBe(1);
    expect(parsePage("99999999999999")).toBe(1);
  });
  it("clamps a page into 1..pageCount", () => {
    expect(clampPage(5, 13)).toBe(3);
    expect(clampPage(0, 13)).toBe(1);
    expect(clampPage(2, 0)).toBe(1);
  });
  it("turns a page into an offset", () => {
    expect(pageOffset(1)).toBe(0);
    expect(pageOffset(3)).toBe(12);
  });
});

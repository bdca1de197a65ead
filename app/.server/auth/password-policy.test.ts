import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS_TEXT } from "./common-passwords";
import { isCommonPassword } from "./password-policy";

describe("the common-passwords list", () => {
  const entries = COMMON_PASSWORDS_TEXT.split("\n");

  it("holds the 10,000 most common passwords: 10,000 entries, none empty, none repeated", () => {
    expect(entries).toHaveLength(10_000);
    expect(entries.filter((p) => p.trim() === "")).toEqual([]);
    expect(new Set(entries).size).toBe(10_000);
    // Most common first.
    expect(entries[0]).toBe("123456");
  });

  it("refuses every entry, whatever its case, and nothing else", () => {
    expect(entries.every((p) => isCommonPassword(p) && isCommonPassword(p.toUpperCase()))).toBe(true);
    expect(isCommonPassword("a-long-enough-password")).toBe(false);
  });
});

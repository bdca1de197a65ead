import { describe, expect, it } from "vitest";
import { headerSchema } from "./header";

describe("page header form schema", () => {
  it("accepts each page key and trims the text (empty allowed)", () => {
    for (const name of ["team", "news", "insurance", "construction", "cyber"]) {
      expect(headerSchema.parse({ name, header_text: " Text " })).toEqual({ name, header_text: "Text" });
    }
    expect(headerSchema.parse({ name: "team", header_text: "" }).header_text).toBe("");
  });
  it("refuses unknown pages and over-long text", () => {
    expect(headerSchema.safeParse({ name: "admin", header_text: "x" }).success).toBe(false);
    expect(headerSchema.safeParse({ name: "team", header_text: "x".repeat(2001) }).success).toBe(false);
    expect(headerSchema.safeParse({ name: "team" }).success).toBe(false);
  });
});

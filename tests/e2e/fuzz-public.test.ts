/**
 * Bad input on the public site: malformed, oversized and oddly-typed route
 * parameters and query strings never produce a 5xx.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedServerUrl } from "./support";

const segment = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("..", ".", "%", "%00", "%2e%2e", "%ZZ", "😀", "a".repeat(3000), "<script>", "' OR 1=1 --", "null", "undefined", "-1", "1e309", "NaN"),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.constantFrom("", "-1", "0", "99999999999999999999", "1.5", "cyber", "CYBER", "news", "all", "team", "insights", "%", "[]", "{}"),
);
const publicPath = fc.oneof(
  segment.map((s) => `/lawyer/${encodeURIComponent(s)}`),
  segment.map((s) => `/post/${encodeURIComponent(s)}`),
  segment.map((s) => `/lawyer/${encodeURIComponent(s)}/vcard`),
  segment.map((s) => `/${encodeURIComponent(s)}`),
  fc.tuple(queryValue, queryValue).map(([c, p]) => `/insights?category=${encodeURIComponent(c)}&page=${encodeURIComponent(p)}`),
  fc.tuple(fc.constantFrom("insurance", "construction", "cyber"), queryValue, queryValue).map(
    ([area, tab, page]) => `/${area}?tab=${encodeURIComponent(tab)}&page=${encodeURIComponent(page)}`,
  ),
  fc.tuple(segment, queryValue).map(([k, v]) => `/insights?${encodeURIComponent(k)}=${encodeURIComponent(v)}&page=${encodeURIComponent(v)}`),
  fc.constantFrom("/insights?page=1&page=2", "/insights?category[]=x", "/team.data", "/nope.data", "/lawyer/%E0%A4%A", "/post/%", "/%c0%af"),
);

describe("public routes under malformed input", () => {
  it("never answer 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(publicPath, async (path) => {
        const res = await fetch(sharedServerUrl() + path, { redirect: "manual" });
        await res.arrayBuffer();
        expect(res.status, path).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });
});

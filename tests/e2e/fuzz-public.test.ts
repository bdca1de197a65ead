/**
 * Bad input on the public site: malformed, oversized and oddly-typed route
 * parameters and query strings never produce a 5xx.
 */
import fc from "fast-check";
import { describe, expect, it } from "./fixture";

const segment = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom(
    "..",
    ".",
    "%",
    "%00",
    "%2e%2e",
    "%ZZ",
    "😀",
    "a".repeat(3000),
    "<script>",
    "' OR 1=1 --",
    "null",
    "undefined",
    "-1",
    "1e309",
    "NaN",
  ),
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
  fc
    .tuple(fc.constantFrom("insurance", "construction", "cyber"), queryValue, queryValue)
    .map(([area, tab, page]) => `/${area}?tab=${encodeURIComponent(tab)}&page=${encodeURIComponent(page)}`),
  fc
    .tuple(segment, queryValue)
    .map(([k, v]) => `/insights?${encodeURIComponent(k)}=${encodeURIComponent(v)}&page=${encodeURIComponent(v)}`),
  fc.tuple(segment, queryValue).map(([k, v]) => `/contact?${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
  fc
    .tuple(fc.oneof(segment, queryValue), queryValue, queryValue)
    .map(([q, kind, page]) => `/search?q=${encodeURIComponent(q)}&kind=${encodeURIComponent(kind)}&page=${encodeURIComponent(page)}`),
  fc.constantFrom(
    "/search",
    "/search?q=",
    "/search?q=%00",
    "/search?q=insur%00ance",
    "/search?q=%22",
    "/search?q=%26%7C!%3A*()",
    `/search?q=${"x".repeat(2000)}`,
    "/search?q=insurance&q=cyber",
    "/search?q[]=x",
    "/search?q=%E0%A4%A",
    "/search?q=insurance&page=99999999999",
    "/search.data?q=insurance",
  ),
  fc.constantFrom(
    "/insights?page=1&page=2",
    "/insights?category[]=x",
    "/team.data",
    "/nope.data",
    "/lawyer/%E0%A4%A",
    "/post/%",
    "/%c0%af",
    "/contact",
    "/contact.data",
    "/privacy",
    "/contact/x",
  ),
);

/** Bodies posted to the enquiry form: odd, oversized, repeated and missing fields, wrong types. */
const formField = fc.constantFrom(
  "name",
  "email",
  "phone",
  "practice_area",
  "message",
  "consent",
  "reference_code",
  "form_token",
  "__proto__",
  "x",
);
const contactPost = fc.record({
  fields: fc.array(fc.tuple(formField, fc.oneof(segment, queryValue)), { maxLength: 10 }),
  type: fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=zzz", "text/plain", "application/json", ""),
  raw: fc.boolean(),
});

describe("public routes under malformed input", () => {
  it("the enquiry form never answers 5xx to a malformed POST", async ({ base }) => {
    await fc.assert(
      fc.asyncProperty(contactPost, async ({ fields, type, raw }) => {
        const params = new URLSearchParams();
        for (const [k, v] of fields) params.append(k, v);
        const body = raw ? fields.map(([k, v]) => `${k}=${v}`).join("&") : params.toString();
        const url = new URL(base);
        const res = await fetch(`${url.origin}/contact`, {
          method: "POST",
          body,
          headers: { origin: url.origin, ...(type ? { "content-type": type } : {}) },
          redirect: "manual",
        });
        await res.arrayBuffer();
        expect(res.status, `${type} ${body.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  it("never answer 5xx", async ({ base }) => {
    await fc.assert(
      fc.asyncProperty(publicPath, async (path) => {
        const res = await fetch(base + path, { redirect: "manual" });
        await res.arrayBuffer();
        expect(res.status, path).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });
});

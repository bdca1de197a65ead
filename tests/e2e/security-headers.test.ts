/** Security headers on every kind of response, scored like the MDN HTTP Observatory. */
import { describe, expect, it } from "./fixture";
import { observatoryScore } from "../support/observatory";

const paths = [
  "/",
  "/team",
  "/insights",
  "/cyber?tab=team",
  "/lawyer/Eleanor-Whitcombe",
  "/no-such-page",
  "/admin",
  "/dashboard",
  "/sitemap.xml",
];

describe("security headers", () => {
  for (const path of paths) {
    it(`${path} scores 100 or more, with a strict CSP and HSTS of at least a year`, async ({ base }) => {
      const res = await fetch(base + path, { redirect: "manual" });
      const { score, results } = observatoryScore(res.headers);
      expect(score, JSON.stringify(results, null, 1)).toBeGreaterThanOrEqual(100);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toMatch(/object-src 'none'/);
      expect(csp).toMatch(/base-uri 'none'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/frame-src https:\/\/www\.google\.com/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(Number(/max-age=(\d+)/.exec(res.headers.get("strict-transport-security") ?? "")?.[1])).toBeGreaterThanOrEqual(31536000);
      expect(res.headers.get("strict-transport-security")).toMatch(/includeSubDomains/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("permissions-policy")).toMatch(/camera=\(\)/);
    });
  }

  it("gives dynamic pages a fresh nonce on every response", async ({ base }) => {
    const nonce = async () => /'nonce-([^']+)'/.exec((await fetch(base + "/admin")).headers.get("content-security-policy") ?? "")?.[1];
    const [a, b] = [await nonce(), await nonce()];
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it("keeps dashboard responses out of every cache, and lets CDNs cache public pages", async ({ base }) => {
    const admin = await fetch(base + "/admin");
    expect(admin.headers.get("cache-control")).toBe("private, no-store");
    const team = await fetch(base + "/team");
    expect(team.headers.get("cache-control")).toMatch(/public, .*s-maxage=\d+, stale-while-revalidate=\d+/);
    // Pages holding the enquiry form's timing token: shared for five seconds at most, never stale (decision 0009).
    for (const path of ["/", "/contact"]) {
      const page = await fetch(base + path);
      expect(page.headers.get("cache-control"), path).toBe("public, max-age=0, s-maxage=5");
    }
  });
});

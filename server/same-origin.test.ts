/**
 * The cross-site refusal: `Sec-Fetch-Site: same-origin` is the site's own;
 * `Origin: null` only on a route whose handle declares `tokenInPath` (the
 * confirmation and preferences links); any origin only on a route that
 * declares `crossSitePosts` (the RFC 8058 one-click unsubscribe).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { routeMatcher, routeTable, type TableRoute } from "~/.server/http/route-table";
import { routeModules } from "../tests/support/route-modules";
import { crossSiteRefused as refusedForRoute } from "./same-origin";

let routeOf: (path: string) => TableRoute | undefined;
beforeAll(async () => {
  routeOf = routeMatcher(await routeModules());
});
const crossSiteRefused = (method: string, path: string, headers: Record<string, string>) => refusedForRoute(method, routeOf(path), headers);

const TOKEN = "1.mfz2a0c0.abcdefghijklmnopqrstuvwxyzABCDEF";

describe("crossSiteRefused", () => {
  it("refuses a cross-site write, lets reads and same-site writes through", () => {
    expect(crossSiteRefused("POST", "/contact", { origin: "https://evil.example", host: "localhost:3000" })).toBe(true);
    expect(crossSiteRefused("POST", "/contact", { "sec-fetch-site": "cross-site" })).toBe(true);
    expect(crossSiteRefused("GET", "/contact", { origin: "https://evil.example" })).toBe(false);
    expect(crossSiteRefused("POST", "/contact", { origin: "http://localhost:3000", host: "localhost:3000" })).toBe(false);
  });

  it("takes a POST that Chromium marks Sec-Fetch-Site: same-origin, whatever its Origin (a no-referrer page writes null)", () => {
    const chromium = { origin: "null", "sec-fetch-site": "same-origin", host: "localhost:3000" };
    expect(crossSiteRefused("POST", `/subscribe/confirm/${TOKEN}`, chromium)).toBe(false);
    expect(crossSiteRefused("POST", `/subscribe/preferences/${TOKEN}`, chromium)).toBe(false);
    expect(crossSiteRefused("POST", "/contact", chromium)).toBe(false);
    expect(crossSiteRefused("POST", "/subscribe", { "sec-fetch-site": "same-origin" })).toBe(false);
  });

  it("takes Origin: null without Sec-Fetch-Site only on a route whose path holds a secret token", () => {
    const opaque = { origin: "null", host: "localhost:3000" };
    expect(crossSiteRefused("POST", `/subscribe/confirm/${TOKEN}`, opaque)).toBe(false);
    expect(crossSiteRefused("POST", `/subscribe/preferences/${TOKEN}`, opaque)).toBe(false);
    expect(crossSiteRefused("POST", "/contact", opaque)).toBe(true);
    expect(crossSiteRefused("POST", "/subscribe", opaque)).toBe(true);
    expect(crossSiteRefused("POST", "/search", opaque)).toBe(true);
    expect(crossSiteRefused("POST", "/dashboard/lawyers", opaque)).toBe(true);
    // Not for another method, and not when the browser says the page was another site's (a sandboxed frame elsewhere).
    expect(crossSiteRefused("PUT", `/subscribe/confirm/${TOKEN}`, opaque)).toBe(true);
    expect(crossSiteRefused("POST", `/subscribe/confirm/${TOKEN}`, { ...opaque, "sec-fetch-site": "cross-site" })).toBe(true);
    expect(crossSiteRefused("POST", `/subscribe/preferences/${TOKEN}`, { ...opaque, "sec-fetch-site": "same-site" })).toBe(true);
  });

  it("keeps refusing a real cross-site POST on every other route, the token pages included", () => {
    const evil = { origin: "https://evil.example", "sec-fetch-site": "cross-site", host: "localhost:3000" };
    for (const path of ["/subscribe", "/contact", "/search", `/subscribe/confirm/${TOKEN}`, `/subscribe/preferences/${TOKEN}`, "/admin"]) {
      expect(crossSiteRefused("POST", path, evil), path).toBe(true);
      expect(crossSiteRefused("POST", path, { "sec-fetch-site": "cross-site" }), path).toBe(true);
      expect(crossSiteRefused("POST", path, { origin: "https://evil.example", host: "localhost:3000" }), path).toBe(true);
    }
  });

  it("lets a one-click unsubscribe POST through from a mail provider, and nothing else on that path", () => {
    const provider = { origin: "https://mail.provider.example", "sec-fetch-site": "cross-site" };
    expect(crossSiteRefused("POST", `/subscribe/one-click/${TOKEN}`, provider)).toBe(false);
    expect(crossSiteRefused("PUT", `/subscribe/one-click/${TOKEN}`, provider)).toBe(true);
    expect(crossSiteRefused("POST", `/subscribe/one-click/${TOKEN}/more`, provider)).toBe(true);
    expect(crossSiteRefused("POST", `/subscribe/preferences/${TOKEN}`, provider)).toBe(true);
    expect(crossSiteRefused("POST", "/subscribe", provider)).toBe(true);
  });

  it("is declared by the one-click route alone, in its handle", async () => {
    const open = routeTable(await routeModules()).filter((r) => r.handle?.crossSitePosts);
    expect(open.map((r) => r.pattern)).toEqual(["/subscribe/one-click/:token"]);
  });

  it("takes Origin: null on the confirmation, preferences and event-cancel links alone, declared in their handles", async () => {
    const token = routeTable(await routeModules()).filter((r) => r.handle?.tokenInPath);
    expect(token.map((r) => r.pattern).sort()).toEqual([
      "/event/cancel/:token",
      "/subscribe/confirm/:token",
      "/subscribe/preferences/:token",
    ]);
  });
});

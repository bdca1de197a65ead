/** The cross-site refusal and its one exception, a route that declares `crossSitePosts` (the RFC 8058 one-click unsubscribe). */
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
});

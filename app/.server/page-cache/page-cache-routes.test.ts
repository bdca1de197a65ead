import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { routeFiles, routeModules } from "../../../tests/support/route-modules";
import { cacheableRoutes, createCacheKeys } from "./page-cache-routes";

let table: ServerBuild["routes"];
let cacheKey: ReturnType<typeof createCacheKeys>;
beforeAll(async () => {
  table = await routeModules();
  cacheKey = createCacheKeys(cacheableRoutes(table));
});

describe("the pages the page cache keeps, read from app/routes.ts and each route's handle", () => {
  it("caches only public GET/HEAD pages, keeping only the parameters each page reads", () => {
    expect(cacheKey("GET", "/")).toBe("/");
    expect(cacheKey("GET", "/_.data")).toBe("/_.data");
    expect(cacheKey("HEAD", "/team")).toBe("/team");
    expect(cacheKey("GET", "/lawyer/Jane-Doe")).toBe("/lawyer/Jane-Doe");
    expect(cacheKey("GET", "/insights?page=2&category=cyber&utm_source=x")).toBe("/insights?category=cyber&page=2");
    expect(cacheKey("GET", "/insights?page=2&author=Ada-Lovelace&utm_source=x")).toBe("/insights?author=Ada-Lovelace&page=2");
    expect(cacheKey("GET", "/cyber?tab=team")).toBe("/cyber?tab=team");
    expect(cacheKey("GET", "/cyber?tab=insights&page=2&category=x")).toBe("/cyber?tab=insights&page=2");
    // A parameter one page reads is not kept for another.
    expect(cacheKey("GET", "/team?tab=x&category=y")).toBe("/team");
    expect(cacheKey("GET", "/team.data?_routes=routes%2Fpublic%2Fteam&x=1")).toBe("/team.data?_routes=routes%2Fpublic%2Fteam");
    expect(cacheKey("GET", "/insights?utm=1")).toBe("/insights");
    for (const page of ["/contact", "/privacy", "/disclaimer", "/accessibility", "/copyright", "/insurance", "/construction", "/post/x"]) {
      expect(cacheKey("GET", page), page).toBe(page);
    }
    for (const file of ["/sitemap.xml", "/robots.txt", "/insights/feed.xml"]) expect(cacheKey("GET", file), file).toBe(file);
    // Resource routes have no .data twin.
    expect(cacheKey("GET", "/sitemap.xml.data")).toBeNull();
    expect(cacheKey("POST", "/")).toBeNull();
    expect(cacheKey("POST", "/contact")).toBeNull();
    for (const never of [
      "/search?q=x",
      "/dashboard",
      "/dashboard/lawyers",
      "/admin",
      "/lawyer/x/vcard",
      "/lawyer/a/b",
      "/images/team/x.jpg",
    ]) {
      expect(cacheKey("GET", never), never).toBeNull();
    }
    // Previews share the page's component but not its handle: never cached.
    for (const preview of ["/preview/post/x", "/preview/lawyer/x", "/preview/shared/post/x", "/preview/shared/lawyer/x"]) {
      expect(cacheKey("GET", preview), preview).toBeNull();
    }
    // The not-found page (the layout's catch-all) is not a page the cache keeps.
    expect(cacheKey("GET", "/no-such-page")).toBeNull();
    expect(cacheKey("GET", "/" + "a".repeat(2000))).toBeNull();
  });

  it("gives an address with a query string the same key when it is asked again, also after more addresses than it remembers", () => {
    const first = cacheKey("GET", "/insights?page=3&utm_source=mail");
    expect(first).toBe("/insights?page=3");
    expect(cacheKey("GET", "/insights?page=3&utm_source=mail")).toBe(first);
    for (let page = 1; page <= 2500; page++) expect(cacheKey("GET", `/insights?page=${page}&x=${page}`)).toBe(`/insights?page=${page}`);
    expect(cacheKey("GET", "/insights?page=3&utm_source=mail")).toBe(first);
    expect(cacheKey("POST", "/insights?page=3&utm_source=mail")).toBeNull();
  });

  it("keeps a new public route that declares it in its handle, with its parameters, without any change to the cache's code", () => {
    const events = { default: () => null, handle: { pageCache: { params: ["month"] } } };
    const withEvents: ServerBuild["routes"] = {
      ...table,
      "routes/public/events": {
        id: "routes/public/events",
        parentId: "routes/public/layout",
        path: "events/:year",
        module: events,
      },
    };
    const keys = createCacheKeys(cacheableRoutes(withEvents));
    expect(keys("GET", "/events/2027?month=5&utm_source=mail")).toBe("/events/2027?month=5");
    expect(keys("GET", "/events/2027.data")).toBe("/events/2027.data");
    // The same route without the handle is not kept.
    const undeclared = {
      ...withEvents,
      "routes/public/events": { ...withEvents["routes/public/events"]!, module: { default: () => null } as never },
    };
    expect(createCacheKeys(cacheableRoutes(undeclared))("GET", "/events/2027")).toBeNull();
  });

  it("keeps every query parameter a cached page's module reads (a parameter left out of its handle would be stripped)", () => {
    const cached = cacheableRoutes(table);
    expect(cached.length).toBeGreaterThan(10);
    for (const route of cached) {
      const source = fs.readFileSync(path.resolve(import.meta.dirname, "../..", routeFiles.get(route.id)!), "utf8");
      const read = [...source.matchAll(/searchParams\.(?:get|getAll|has)\("([^"]+)"\)/g)].map((m) => m[1]);
      for (const name of read) expect(route.params, `${route.id} reads ?${name}`).toContain(name);
    }
  });
});

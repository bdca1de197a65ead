/**
 * The one reading of a route pattern (`patternRegex`): what the 404 log, the
 * request log and the WordPress importer test paths with, and what
 * route-table.ts `routeMatcher` ranks (checked against React Router's own
 * matching in tests/integration/route-secrets.test.ts).
 */
import { describe, expect, it } from "vitest";
import { isSecretRoutePath, isSitePath, patternRegex, secretRoutePattern } from "./route-patterns";

const matches = (pattern: string, path: string, caseSensitive = false) => patternRegex(pattern, caseSensitive).test(path);

describe("patternRegex", () => {
  it("reads static segments literally, ignoring case unless the route is case-sensitive", () => {
    expect(matches("/sitemap.xml", "/sitemap.xml")).toBe(true);
    expect(matches("/sitemap.xml", "/sitemapXxml")).toBe(false);
    expect(matches("/team", "/Team")).toBe(true);
    expect(matches("/team", "/Team", true)).toBe(false);
    expect(matches("/team", "/team", true)).toBe(true);
    expect(matches("/team", "/teams")).toBe(false);
    expect(matches("/team", "/team/x")).toBe(false);
  });

  it("takes a parameter as any text up to the next slash, what follows its name literally", () => {
    expect(matches("/lawyer/:slug", "/lawyer/ada-stone")).toBe(true);
    expect(matches("/lawyer/:slug", "/lawyer/")).toBe(false);
    expect(matches("/lawyer/:slug", "/lawyer/a/b")).toBe(false);
    expect(matches("/event/:slug.ics", "/event/breakfast.ics")).toBe(true);
    expect(matches("/event/:slug.ics", "/event/breakfast")).toBe(false);
    expect(matches("/event/:slug.ics", "/event/breakfastxics")).toBe(false);
    expect(matches("/files/:name?", "/files")).toBe(true);
    expect(matches("/files/:name?", "/files/a")).toBe(true);
    expect(matches("/files/:name?", "/files/a/b")).toBe(false);
  });

  it("takes a splat as the rest of the path or nothing, and the catch-all as every path", () => {
    expect(matches("/files/*", "/files")).toBe(true);
    expect(matches("/files/*", "/files/a/b")).toBe(true);
    expect(matches("/files/*", "/filesx")).toBe(false);
    for (const path of ["/", "/a", "/a/b/c", "//"]) expect(matches("/*", path), path).toBe(true);
  });

  it("lets a path end in any number of slashes, as React Router does (// is the home page)", () => {
    expect(matches("/", "/")).toBe(true);
    expect(matches("/", "//")).toBe(true);
    expect(matches("/", "/a")).toBe(false);
    expect(matches("/team", "/team/")).toBe(true);
    expect(matches("/team", "/team//")).toBe(true);
  });
});

describe("the readings built on it", () => {
  const patterns = ["/", "/team", "/lawyer/:slug", "/subscribe/confirm/:token", "/event/cancel/:token", "/*"];

  it("a secret route's path is recognised however it is written", () => {
    const secret = isSecretRoutePath(patterns);
    const pattern = secretRoutePattern(patterns);
    for (const path of ["/subscribe/confirm/abc", "/subscribe/confirm/abc/", "/subscribe/confirm/abc//", "/Subscribe/Confirm/abc"]) {
      expect(secret(path), path).toBe(true);
      expect(pattern(path), path).toBe("/subscribe/confirm/:token");
    }
    expect(pattern("/event/cancel/12.q8Jb3x")).toBe("/event/cancel/:token");
    for (const path of ["/subscribe/confirm", "/lawyer/ada", "/subscribe/confirm/a/b"]) {
      expect(secret(path), path).toBe(false);
      expect(pattern(path), path).toBeNull();
    }
  });

  it("the site's own paths are every route's but the catch-all's", () => {
    const site = isSitePath(patterns);
    for (const path of ["/", "//", "/team/", "/lawyer/ada"]) expect(site(path), path).toBe(true);
    for (const path of ["/old-page", "/lawyer/ada/vcard", "/2019/05/post"]) expect(site(path), path).toBe(false);
  });
});

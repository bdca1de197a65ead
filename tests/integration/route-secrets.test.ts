/**
 * No secret in a path reaches the visit statistics (issue 43): every route of
 * app/routes.ts is walked, each parameter given a recognisable value, and what
 * a beacon from that address would be stored as is checked. A route with a
 * parameter named like a secret (token, key, code…; route-table.ts
 * `isSecretParam`) must never be stored with its value, and must not declare
 * itself counted by its path.
 */
import { matchRoutes, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { routeMatcher, routeTable, type TableRoute } from "~/.server/http/route-table";
import { isSecretParam, patternParams, secretRoutePattern } from "~/lib/route-patterns";
import { logRequest, setRequestLogSecrets } from "~/.server/log";
import { pageKeyOf } from "~/.server/statistics/stats-ingest";
import { NOT_FOUND_PAGE } from "~/lib/stats";
import { routeModules } from "../support/route-modules";

let table: TableRoute[] = [];
let routeOf: (pathname: string) => TableRoute | undefined;
let modules: ServerBuild["routes"];

beforeAll(async () => {
  modules = await routeModules();
  table = routeTable(modules);
  routeOf = routeMatcher(modules);
});

/** The route id React Router itself matches for a path (its matchRoutes over the route tree). */
function reactRouterMatch(pathname: string): string | undefined {
  type Node = { id: string; path?: string; index?: boolean; children?: Node[] };
  const isTop = (parentId: string | undefined) => !parentId || !modules[parentId];
  const childrenOf = (parentId: string | undefined): Node[] =>
    Object.values(modules)
      .filter((r) => (parentId === undefined ? isTop(r!.parentId) : r!.parentId === parentId))
      .map((r) => (r!.index ? { id: r!.id, index: true, path: r!.path } : { id: r!.id, path: r!.path, children: childrenOf(r!.id) }));
  const matches = matchRoutes(childrenOf(undefined) as Parameters<typeof matchRoutes>[0], pathname);
  return matches?.[matches.length - 1]?.route.id;
}

/** An address of the route with each parameter a value the test can look for. */
const sample = (pattern: string) =>
  pattern.replace(/:(\w+)/g, (_, name: string) => `VALUE-${name}-7f3a`).replace(/\*$/, "VALUE-splat-7f3a");

describe("route parameters named like secrets", () => {
  it("are recognised by name", () => {
    for (const name of ["token", "key", "apiKey", "code", "resetCode", "secret", "signature", "hash", "password", "otp"])
      expect(isSecretParam(name), name).toBe(true);
    for (const name of ["slug", "id", "kind", "file"]) expect(isSecretParam(name), name).toBe(false);
    expect(patternParams("/subscribe/confirm/:token")).toEqual(["token"]);
    expect(patternParams("/og/:kind/:file")).toEqual(["kind", "file"]);
  });

  it("every route of app/routes.ts: a beacon from its address is never stored with a secret parameter's value", () => {
    const withSecrets = table.filter((r) => patternParams(r.pattern).some(isSecretParam));
    // The walk sees the routes it must (a new one is checked the same way).
    expect(withSecrets.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        "/subscribe/confirm/:token",
        "/subscribe/preferences/:token",
        "/subscribe/one-click/:token",
        "/admin/reset-password/:token",
        "/admin/invitation/:token",
      ]),
    );
    for (const route of table.filter((r) => r.pattern.includes(":") || r.pattern.endsWith("*"))) {
      const address = sample(route.pattern);
      const matched = routeOf(address);
      const stored = pageKeyOf(matched, address);
      const secrets = patternParams(route.pattern).filter(isSecretParam);
      for (const name of secrets)
        expect(stored?.key ?? "", `${route.pattern} would be stored with its ${name}`).not.toContain(`VALUE-${name}-`);
      // A route that declares a secret parameter counted by its path is a mistake, even though it is stored by its pattern.
      if (secrets.length) expect(route.handle?.statistics, `${route.pattern} declares statistics: "path"`).not.toBe("path");
    }
  });

  it("every route of app/routes.ts: the request log writes an address holding a secret as its route's pattern, any other as it is", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      return true;
    });
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "info";
    setRequestLogSecrets(secretRoutePattern(table.map((r) => r.pattern)));
    try {
      const signedCancel = "/event/cancel/12.q8Jb3x0S1n2WzY7cVvT4uKp9LmN6oRaEq8Jb3x0S1n2";
      logRequest("a", "GET", signedCancel, 200, 1);
      logRequest("b", "POST", "/event/cancel/q8Jb3x0S1n2WzY7cVvT4uKp9LmN6oRaE", 404, 1);
      logRequest("c", "GET", "/event/Delay-Claims-Breakfast-Seminar", 200, 1);
      // The same page for React Router (routeMatcher): written as its pattern too.
      logRequest("e", "GET", `${signedCancel}//`, 200, 1);
      for (const route of table.filter((r) => patternParams(r.pattern).some(isSecretParam)))
        logRequest("d", "GET", sample(route.pattern), 200, 1);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      spy.mockRestore();
      setRequestLogSecrets(undefined);
      process.env.LOG_LEVEL = level;
    }
    const paths = lines.map((l) => (JSON.parse(l) as { path: string }).path);
    expect(paths.slice(0, 4)).toEqual([
      "/event/cancel/:token",
      "/event/cancel/:token",
      "/event/Delay-Claims-Breakfast-Seminar",
      "/event/cancel/:token",
    ]);
    expect(paths.length).toBeGreaterThan(5);
    for (const path of paths) expect(path).not.toMatch(/VALUE-|q8Jb3x/);
  });

  it("finds the route React Router finds, for every route's address and some that are not", () => {
    const addresses = [
      ...table.map((r) => sample(r.pattern)),
      "/Team/",
      "/lawyer/x/vcard",
      "/dashboard",
      "/dashboard/subscribers/export",
      "/dashboard/subscribers/12",
      "/a/b/c",
      "/insights/feed.xml",
      // Ends in more than one slash: React Router takes them all (route-patterns.ts `patternRegex`).
      "//",
      "/team//",
      "/subscribe/confirm/abc.def//",
      "/insights/feed.xml/",
    ];
    for (const address of addresses) expect(routeOf(address)?.id, address).toBe(reactRouterMatch(address));
  });

  it("stores a page by what its route declares: a secret link by its pattern, a made-up page as not found, the rest not at all", () => {
    const key = (path: string) => pageKeyOf(routeOf(path), path);
    expect(key("/subscribe/confirm/abc.def")).toEqual({ key: "/subscribe/confirm/:token", published: false });
    expect(key("/subscribe/preferences/abc.def")).toEqual({ key: "/subscribe/preferences/:token", published: false });
    expect(key("/no/such/page")).toEqual({ key: NOT_FOUND_PAGE, published: false });
    expect(key("/lawyer/ada-stone")).toEqual({ key: "/lawyer/ada-stone", published: true });
    expect(key("/Team/")).toEqual({ key: "/team", published: false });
    expect(key("/")).toEqual({ key: "/", published: false });
    // Not pages of the public site: not counted.
    for (const path of ["/preview/shared/post/x", "/dashboard", "/admin/reset-password/abc", "/sitemap.xml", "/subscribe/one-click/abc"])
      expect(key(path), path).toBeNull();
    // A route that wrongly declared "path" with a token in it is still stored by its pattern.
    const careless = { id: "x", pattern: "/x/:token", handle: { statistics: "path" as const }, page: true, parents: [] };
    expect(pageKeyOf(careless, "/x/SECRET")).toEqual({ key: "/x/:token", published: false });
  });
});

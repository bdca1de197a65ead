/**
 * The team directory's filters (issue 33) through the real loaders and meta
 * on the demo content: /team and a practice page's Team tab filtered by
 * language, role, practice area and name; filtered views noindex with the
 * canonical link to the unfiltered list; the page cache keys them apart.
 */
import { testContext } from "../support/route-call";
import { beforeAll, describe, expect, it } from "vitest";
import { cacheableRoutes, createCacheKeys } from "~/.server/page-cache/page-cache-routes";
import { routeModules } from "../support/route-modules";
import { seedDemoContent } from "~/.server/db/seed";
import * as practice from "~/routes/public/practice";
import * as team from "~/routes/public/team";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();
const SITE = "http://localhost:3000";

beforeAll(async () => {
  await seedDemoContent();
});

type Tag = Record<string, unknown>;
type Loaded = { members: { full_name: string }[]; total?: number; team?: { total: number } };

async function render(mod: typeof team | typeof practice, url: string) {
  const request = new Request(SITE + url);
  const loaderData = (await mod.loader({ request, params: {}, context: testContext() } as never)) as unknown as Loaded;
  const { pathname, search } = new URL(request.url);
  const matches = [{ id: "root" }, { id: "routes/public/layout", loaderData: { year: 2026, siteUrl: SITE } }, { id: "page", loaderData }];
  const tags = mod.meta({ loaderData, params: {}, location: { pathname, search }, matches } as never) as Tag[];
  return { names: loaderData.members.map((m) => m.full_name), data: loaderData, tags };
}

const canonical = (tags: Tag[]) => tags.find((t) => t.rel === "canonical")?.href;
const robots = (tags: Tag[]) => tags.find((t) => t.name === "robots")?.content;

describe("/team filters", () => {
  it("the unfiltered list is indexed, with everyone", async () => {
    const { names, tags, data } = await render(team, "/team");
    expect(names).toHaveLength(10);
    expect(data.total).toBe(10);
    expect(robots(tags)).toBeUndefined();
    expect(canonical(tags)).toBe(`${SITE}/team`);
  });

  it("filters by language, role, practice area and name, in the spec's order; filtered views are noindex with /team canonical", async () => {
    const french = await render(team, "/team?language=fr");
    expect(french.names).toEqual(["Eleanor Whitcombe", "Catherine Doyle", "Sofia Marchetti"]);
    expect(robots(french.tags)).toBe("noindex");
    expect(canonical(french.tags)).toBe(`${SITE}/team`);
    expect(french.tags.find((t) => "title" in t)?.title).toBe("Our Team: French | Harrow Kline LLP");

    expect((await render(team, "/team?practice=cyber&role=partners")).names).toEqual(["Rajiv Menon"]);
    expect((await render(team, "/team?role=associates")).names).toEqual(["Amelia Brandt", "Benjamin Okafor", "Hiroshi Tanaka"]);
    expect((await render(team, "/team?role=staff")).names).toEqual(["Nadia Kowalski", "Patrick Lindqvist"]);
    expect((await render(team, "/team?q=marc")).names).toEqual(["Marcus Adeyemi", "Sofia Marchetti"]);
    expect((await render(team, "/team?language=ja&practice=cyber")).names).toEqual(["Hiroshi Tanaka"]);
    // Nobody: an empty list (the page says so and links to /team).
    const nobody = await render(team, "/team?role=counsel");
    expect(nobody.names).toEqual([]);
    expect(nobody.data.total).toBe(10);
  });

  it("the practice pages' Team tab uses the same filters within its area", async () => {
    const all = await render(practice, "/cyber?tab=team");
    expect(all.names).toEqual(["Rajiv Menon", "Benjamin Okafor", "Hiroshi Tanaka"]);
    expect(robots(all.tags)).toBeUndefined();
    const partners = await render(practice, "/cyber?tab=team&role=partners");
    expect(partners.names).toEqual(["Rajiv Menon"]);
    expect(robots(partners.tags)).toBe("noindex");
    expect(canonical(partners.tags)).toBe(`${SITE}/cyber?tab=team`);
    // The page's own area wins over a practice parameter.
    expect((await render(practice, "/insurance?tab=team&practice=cyber&language=fr")).names).toEqual([
      "Eleanor Whitcombe",
      "Catherine Doyle",
    ]);
  });

  it("the page cache keeps each filtered view under its own key, without other parameters", async () => {
    const cacheKey = createCacheKeys(cacheableRoutes(await routeModules()));
    expect(cacheKey("GET", "/team?language=fr&utm_source=x")).toBe("/team?language=fr");
    expect(cacheKey("GET", "/team?practice=cyber&language=fr&role=partners&q=ra")).toBe(
      "/team?practice=cyber&language=fr&role=partners&q=ra",
    );
    expect(cacheKey("GET", "/cyber?tab=team&role=partners&practice=insurance")).toBe("/cyber?tab=team&role=partners");
    expect(team.handle.pageCache.params).toEqual(["practice", "language", "role", "q"]);
    expect(practice.handle.pageCache.params).toEqual(["tab", "page", "language", "role", "q"]);
  });
});

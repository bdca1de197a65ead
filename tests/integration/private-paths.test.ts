/**
 * The two lists of private paths kept outside the routes agree with
 * app/routes.ts (issue 44, item 4): the reference nginx's private map
 * (deploy/nginx/harrow-kline.conf: never cached, never answered from the
 * cache) matches every staff route — sign-in, the dashboard, sign-out — and
 * every preview, and no public route; the speculation rules of the public
 * pages (app/lib/speculation-rules.ts) never prefetch or prerender a staff
 * route. A route added to app/routes.ts that either list misses fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeTable } from "~/.server/http/route-table";
import { SPECULATION_RULES } from "~/lib/speculation-rules";
import { routeModules } from "../support/route-modules";

// Pathless layouts and the catch-all 404 have no address of their own.
const table = routeTable(await routeModules()).filter((r) => !r.id.endsWith("/layout") && !r.pattern.endsWith("*"));
/** A path of the route, its parameters filled as a visitor's address would be. */
const pathOf = (pattern: string) => pattern.replace(/:(\w+)\??/g, "sample-$1");
const isStaff = (id: string) => id.startsWith("routes/admin/");
const isPreview = (id: string) => id.startsWith("preview-");

/** The regular expressions of nginx's `map $uri $harrow_kline_private` (the lines that give 1). */
function nginxPrivate(): RegExp[] {
  const conf = fs.readFileSync(path.resolve(import.meta.dirname, "../../deploy/nginx/harrow-kline.conf"), "utf8");
  const block = /map \$uri \$harrow_kline_private \{([^}]*)\}/.exec(conf)![1];
  return [...block.matchAll(/^\s*~(\S+)\s+1;/gm)].map((m) => new RegExp(m[1]));
}

/** The speculation rules' `href_matches` exclusions as regular expressions (`*` any text, the rest literal). */
function speculationExclusions(): RegExp[] {
  const rules = JSON.parse(SPECULATION_RULES) as { prefetch: { where: { and: { not?: { href_matches?: string[] } }[] } }[] };
  const patterns = rules.prefetch[0].where.and.flatMap((part) => part.not?.href_matches ?? []);
  return patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`));
}

describe("the private paths outside app/routes.ts", () => {
  it("walks the staff, preview and public routes", () => {
    expect(table.filter((r) => isStaff(r.id)).length).toBeGreaterThan(30);
    expect(table.filter((r) => isPreview(r.id))).toHaveLength(5);
    expect(table.filter((r) => !isStaff(r.id) && !isPreview(r.id)).length).toBeGreaterThan(20);
  });

  it("nginx's private map matches every staff route and preview, and no public route", () => {
    const map = nginxPrivate();
    expect(map.length).toBeGreaterThan(0);
    for (const route of table) {
      const privateInNginx = map.some((re) => re.test(pathOf(route.pattern)));
      expect(privateInNginx, `${route.pattern} (${route.id})`).toBe(isStaff(route.id) || isPreview(route.id));
    }
  });

  it("the speculation rules never prefetch or prerender a staff route, and leave every public page to them", () => {
    const excluded = speculationExclusions();
    for (const route of table) {
      const path = pathOf(route.pattern);
      if (isStaff(route.id))
        expect(excluded.some((re) => re.test(path)) && excluded.some((re) => re.test(`${path}?x=1`)), route.pattern).toBe(true);
      else if (route.page && !isPreview(route.id))
        expect(
          excluded.some((re) => re.test(path)),
          route.pattern,
        ).toBe(false);
    }
  });
});

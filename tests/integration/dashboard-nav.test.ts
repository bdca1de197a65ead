/**
 * The dashboard's navigation and home cards are made from the routes'
 * handles (lib/route-handle.ts `nav`), and tied to the guard that lets a
 * person in: for each role, the navigation holds every screen of
 * app/routes.ts that declares an entry and whose loader lets that role in,
 * in the declared order, and no other; the home page shows the same screens
 * as cards, under the spec's names.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { signIn } from "~/.server/auth/sign-in";
import { routeTable, type TableRoute } from "~/.server/http/route-table";
import type { DashboardNav } from "~/lib/route-handle";
import * as dashboard from "~/routes/admin/dashboard";
import * as layout from "~/routes/admin/layout";
import { setUpTestDatabase } from "../support/database";
import { callRoute, type RouteModule } from "../support/route-call";
import { routeFiles, routeModules } from "../support/route-modules";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const ROLES = ["owner", "admin", "editor", "events"] as const;
const cookies: Record<string, string> = {};
/** The routes that declare a navigation entry, in their declared order. */
type Screen = TableRoute & { handle: { nav: DashboardNav } };
let screens: Screen[] = [];

beforeAll(async () => {
  screens = routeTable(await routeModules())
    .filter((r): r is Screen => !!r.handle?.nav)
    .sort((a, b) => a.handle.nav.order - b.handle.nav.order);
  for (const role of ROLES) {
    const email = `${role}-nav@example.com`;
    await createStaffAccount(email, "a-long-enough-password", "Staff", role);
    const result = await signIn(new Request(`${ORIGIN}/admin`), email, "a-long-enough-password", "192.0.2.1");
    if (!result.ok) throw new Error("sign-in failed");
    cookies[role] = result.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }
});

/** A loader called as the server would (through the dashboard guard), with `role`'s session. */
const load = (loader: unknown, role: (typeof ROLES)[number], url: string) =>
  callRoute(loader as (args: never) => Promise<unknown>, new Request(`${ORIGIN}${url}`, { headers: { cookie: cookies[role] } }));
describe("the dashboard's navigation comes from the routes", () => {
  it("each entry is declared by a dashboard page of its own: no parameter, a permission, its own order", () => {
    expect(screens.length).toBeGreaterThanOrEqual(14);
    for (const route of screens) {
      expect(route.parents, route.pattern).toContain("routes/admin/layout");
      expect(route.page, route.pattern).toBe(true);
      expect(route.pattern, route.pattern).toMatch(/^\/dashboard\/[a-z/-]+$/);
      expect(route.handle.permission, route.pattern).toBeTruthy();
    }
    const orders = screens.map((r) => r.handle.nav.order);
    expect(new Set(orders).size).toBe(orders.length);
    // Team and Articles, under the spec's card names.
    expect(screens.map((r) => [r.handle.nav.label, r.handle.nav.title ?? r.handle.nav.label]).slice(0, 2)).toEqual([
      ["Team", "Manage Team"],
      ["Articles", "Manage Articles"],
    ]);
  });

  it.each(ROLES)("%s: the navigation and the home cards list every screen whose loader lets the role in, and none other", async (role) => {
    const open: Screen[] = [];
    for (const route of screens) {
      const module = (await import(path.resolve("app", routeFiles.get(route.id)!))) as RouteModule;
      const answer = await load(module.loader, role, route.pattern);
      expect([200, 403], `${role} ${route.pattern}`).toContain(answer.status);
      if (answer.status === 200) open.push(route);
    }
    const frame = await load(layout.loader, role, "/dashboard");
    expect((frame.data as { nav: unknown }).nav).toEqual(open.map((r) => ({ to: r.pattern, label: r.handle.nav.label })));
    const home = await load(dashboard.loader, role, "/dashboard");
    expect((home.data as { cards: { to: string; title: string }[] }).cards.map(({ to, title }) => ({ to, title }))).toEqual(
      open.map((r) => ({ to: r.pattern, title: r.handle.nav.title ?? r.handle.nav.label })),
    );
    if (role === "owner") expect(open).toHaveLength(screens.length);
    if (role === "editor") {
      const labels = open.map((r) => r.handle.nav.label);
      expect(labels).toEqual(expect.arrayContaining(["Team", "Articles", "Statistics", "My account"]));
      expect(labels).not.toContain("Staff");
    }
    if (role === "events") {
      // The events coordinator: events and their registrants only (the events screens), and their own account.
      const labels = open.map((r) => r.handle.nav.label);
      expect(labels).toContain("My account");
      for (const other of ["Team", "Articles", "Statistics", "Staff", "Subscribers", "Enquiries"]) expect(labels).not.toContain(other);
    }
  });
});

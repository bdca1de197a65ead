/**
 * Every route under the dashboard layout, collected from app/routes.ts (so a
 * new route cannot be missed): without a session its loader redirects to
 * /admin and its action answers 401/403 and writes nothing.
 */
import { rowsOf } from "~/.server/db/rows";
import { guarded, testContext, type RouteModule } from "../support/route-call";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { createEnquiry } from "~/.server/db/enquiries";
import { adminRoutes } from "../support/admin-routes";
import { routeModules } from "../support/route-modules";
import { requestInfo, routerContext } from "~/.server/http/request-context";
import { handlesByPattern, routeTable, type TableRoute } from "~/.server/http/route-table";
import { PERMISSIONS } from "~/lib/permissions";
import { setUpTestDatabase } from "../support/database";
import { signedIn } from "../support/staff-session";

setUpTestDatabase();

const CLIENT_IP = "127.0.0.1";
const context = testContext(CLIENT_IP);
const ORIGIN = "http://localhost:3000";

async function counts() {
  const tables = [
    "team",
    "articles",
    "headers",
    "hours",
    "session",
    "login_attempts",
    "enquiries",
    "audit_log",
    "user",
    "staff_tokens",
    "site_settings",
    "passkey",
    "two_factor",
    "mail_outbox",
  ];
  const out: Record<string, number> = {};
  for (const t of tables) {
    const result = await db().execute(sql.raw(`select count(*)::int as n from "${t}"`));
    const rows = rowsOf<{ n: number }>(result);
    out[t] = Number(rows[0].n);
  }
  return out;
}

async function settle(promise: Promise<unknown>): Promise<unknown> {
  try {
    return await promise;
  } catch (thrown) {
    return thrown;
  }
}

const list = adminRoutes();

describe("dashboard access without a session", () => {
  it("finds the dashboard routes in app/routes.ts", () => {
    const files = list.map((r) => r.file);
    expect(files).toContain("routes/admin/layout.tsx");
    expect(files).toContain("routes/admin/dashboard.tsx");
    expect(files).toContain("routes/admin/lawyer-edit.tsx");
    for (const f of ["staff", "activity", "outbox", "outbox-message", "account", "account-two-factor"])
      expect(files).toContain(`routes/admin/${f}.tsx`);
    expect(files).toContain("routes/admin/account-passkey-options.ts");
    expect(list.length).toBeGreaterThanOrEqual(10);
  });

  it.each(list)("$file: the loader redirects to /admin", async ({ file, url, params }) => {
    const mod = (await import(path.resolve("app", file))) as RouteModule;
    expect(typeof mod.loader, `${file} must have a loader that checks the session`).toBe("function");
    const request = new Request(`${ORIGIN}${url}`);
    const result = await settle(guarded(mod.loader!, { request, params, context }));
    expect(result).toBeInstanceOf(Response);
    const res = result as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin?redirectTo=${encodeURIComponent(url)}`);
  });

  it.each(list)("$file: the action (if any) answers 401/403 and writes nothing", async ({ file, url, params }) => {
    const mod = (await import(path.resolve("app", file))) as RouteModule;
    if (!mod.action) return;
    const before = await counts();
    const bodies: [string, BodyInit][] = [
      [
        "application/x-www-form-urlencoded",
        new URLSearchParams({
          intent: "delete",
          id: "1",
          name: "team",
          header_text: "x",
          start_time: "1",
          end_time: "2",
          full_name: "X",
          title: "T",
          email: "x@example.com",
          extension: "1",
          desc: "d",
          category: "cyber",
          news: "yes",
          copy: "<p>x</p>",
        }).toString(),
      ],
      // The staff screens' actions.
      ...[
        "invite",
        "role",
        "deactivate",
        "reactivate",
        "resend",
        "withdraw",
        "security",
        "password",
        "sign-out-others",
        "add-passkey",
        "remove-passkey",
        "start",
        "confirm",
        "disable",
        "codes",
      ].map(
        (intent) =>
          [
            "application/x-www-form-urlencoded",
            new URLSearchParams({
              intent,
              id: "1",
              email: "x@example.com",
              role: "owner",
              require_two_factor: "on",
              current: "a-long-enough-password",
              password: "another-long-password",
              confirm: "another-long-password",
              code: "123456",
            }).toString(),
          ] as [string, BodyInit],
      ),
    ];
    for (const [type, body] of bodies) {
      const request = new Request(`${ORIGIN}${url}`, { method: "POST", headers: { "content-type": type, origin: ORIGIN }, body });
      const result = await settle(guarded(mod.action, { request, params, context }));
      const status = result instanceof Response ? result.status : (result as { init?: { status?: number } })?.init?.status;
      expect([401, 403]).toContain(status);
    }
    // A forged session cookie does not help either.
    const forged = new Request(`${ORIGIN}${url}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: "firm.session_token=forged.value" },
      body: "intent=delete&id=1",
    });
    const result = await settle(guarded(mod.action, { request: forged, params, context }));
    // A thrown Response, or (the article forms, which keep what was typed) a 401 answer with the message.
    expect([401, 403]).toContain(result instanceof Response ? result.status : (result as { init?: { status?: number } })?.init?.status);
    expect(await counts()).toEqual(before);
  });
});

/** Screens a role may not open: with an editor's session, loaders and actions answer 403 and write nothing. */
const OWNER_AND_ADMIN_ONLY = ["routes/admin/enquiries.tsx", "routes/admin/enquiry.tsx"];

describe("Enquiries screens with an editor's session", () => {
  let cookie = "";
  let enquiryId = 0;
  it("signs in an editor", async () => {
    cookie = await signedIn("guard-editor@example.com", "editor", "192.0.2.1", "Editor");
    enquiryId = (
      await createEnquiry({
        name: "Guarded Sender",
        email: "g@example.com",
        phone: "",
        practice_area: "cyber",
        message: "Please call me back.",
      })
    ).id;
  });

  it.each(list.filter((r) => OWNER_AND_ADMIN_ONLY.includes(r.file)))(
    "$file: loader and action answer 403, nothing written",
    async ({ file, url, params }) => {
      const mod = (await import(path.resolve("app", file))) as RouteModule;
      const target = url.replace("/1", `/${enquiryId}`);
      const ps = "id" in params ? { id: String(enquiryId) } : params;
      const loaded = await settle(
        guarded(mod.loader!, { request: new Request(`${ORIGIN}${target}`, { headers: { cookie } }), params: ps, context }),
      );
      expect((loaded as Response).status).toBe(403);
      if (!mod.action) return;
      const before = await counts();
      for (const body of [`intent=delete&id=${enquiryId}`, "intent=save&state=closed&staff_note=x"]) {
        const request = new Request(`${ORIGIN}${target}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, cookie },
          body,
        });
        const result = await settle(guarded(mod.action, { request, params: ps, context }));
        const status = result instanceof Response ? result.status : (result as { init?: { status?: number } })?.init?.status;
        expect(status).toBe(403);
      }
      expect(await counts()).toEqual(before);
    },
  );
});

/** The dashboard's guard (routes/admin/layout.tsx's middleware) reads each route's declared permission. */
describe("permissions declared by each dashboard route", () => {
  let table: TableRoute[];
  let cookie = "";
  it("signs in an owner", async () => {
    table = routeTable(await routeModules());
    cookie = await signedIn("guard-owner@example.com", "owner", "192.0.2.2", "Owner");
  });

  const underLayout = () => table.filter((route) => route.parents.includes("routes/admin/layout"));

  it("every route under the dashboard layout declares what it needs", () => {
    expect(underLayout().length).toBe(list.length - 1); // the layout itself is the guard
    for (const route of underLayout()) {
      expect([...PERMISSIONS, "signed-in"], `${route.id} declares handle.permission`).toContain(route.handle?.permission);
    }
  });

  it("a route that declares no permission is refused (403) before its loader or action runs, for every dashboard route, even for an owner", async () => {
    const layout = (await import("~/routes/admin/layout")) as unknown as {
      middleware: ((args: unknown, next: () => Promise<unknown>) => Promise<unknown>)[];
    };
    for (const route of underLayout()) {
      const handles = new Map(handlesByPattern(table));
      // The route as a new screen would be if it forgot to say who may open it.
      handles.set(route.pattern, { ...route.handle, permission: undefined });
      const url = ORIGIN + route.pattern.replace(/:(\w+)/g, (_m, name: string) => (name === "id" ? "1" : "someone"));
      for (const method of ["GET", "POST"]) {
        const request = new Request(url, {
          method,
          headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
          ...(method === "POST" ? { body: "intent=delete&id=1" } : {}),
        });
        let ran = false;
        const answer = await settle(
          layout.middleware[0](
            {
              request,
              params: {},
              context: routerContext(requestInfo(context), handles),
              pattern: route.pattern.slice(1),
              url: new URL(url),
            },
            () => {
              ran = true;
              return Promise.resolve(new Response("ran"));
            },
          ),
        );
        expect(ran, `${method} ${route.pattern}`).toBe(false);
        expect((answer as Response).status, `${method} ${route.pattern}`).toBe(403);
      }
      // With its declaration, the same owner gets through.
      let ran = false;
      await layout.middleware[0](
        {
          request: new Request(url, { headers: { cookie } }),
          params: {},
          context: routerContext(requestInfo(context), handlesByPattern(table)),
          pattern: route.pattern.slice(1),
          url: new URL(url),
        },
        () => {
          ran = true;
          return Promise.resolve(new Response("ran"));
        },
      );
      expect(ran, route.pattern).toBe(true);
    }
  });
});

/**
 * Every route under the dashboard layout, collected from app/routes.ts (so a
 * new route cannot be missed): without a session its loader redirects to
 * /admin and its action answers 401/403 and writes nothing.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { adminRoutes } from "../support/admin-routes";
import { useTestDatabase } from "../support/database";

useTestDatabase();

const context = { clientIp: "127.0.0.1", requestId: "t", nonce: "n" };
const ORIGIN = "http://localhost:3000";

async function counts() {
  const tables = ["team", "articles", "headers", "hours", "session", "login_attempts"];
  const out: Record<string, number> = {};
  for (const t of tables) {
    const result = await db().execute(sql.raw(`select count(*)::int as n from "${t}"`));
    const rows = (result as unknown as { rows?: { n: number }[] }).rows ?? (result as unknown as { n: number }[]);
    out[t] = Number(rows[0]!.n);
  }
  return out;
}

async function settle(promise: Promise<unknown>): Promise<Response | unknown> {
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
    expect(list.length).toBeGreaterThanOrEqual(10);
  });

  it.each(list)("$file: the loader redirects to /admin", async ({ file, url, params }) => {
    const mod = await import(path.resolve("app", file));
    expect(typeof mod.loader, `${file} must have a loader that checks the session`).toBe("function");
    const request = new Request(`${ORIGIN}${url}`);
    const result = await settle(mod.loader({ request, params, context }));
    expect(result).toBeInstanceOf(Response);
    const res = result as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin?redirectTo=${encodeURIComponent(url)}`);
  });

  it.each(list)("$file: the action (if any) answers 401/403 and writes nothing", async ({ file, url, params }) => {
    const mod = await import(path.resolve("app", file));
    if (!mod.action) return;
    const before = await counts();
    const bodies: [string, BodyInit][] = [
      ["application/x-www-form-urlencoded", new URLSearchParams({ intent: "delete", id: "1", name: "team", header_text: "x", start_time: "1", end_time: "2", full_name: "X", title: "T", email: "x@example.com", extension: "1", desc: "d", category: "cyber", news: "yes", copy: "<p>x</p>" }).toString()],
    ];
    for (const [type, body] of bodies) {
      const request = new Request(`${ORIGIN}${url}`, { method: "POST", headers: { "content-type": type, origin: ORIGIN }, body });
      const result = await settle(mod.action({ request, params, context }));
      const status = result instanceof Response ? result.status : (result as { init?: { status?: number } })?.init?.status;
      expect([401, 403]).toContain(status);
    }
    // A forged session cookie does not help either.
    const forged = new Request(`${ORIGIN}${url}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: "firm.session_token=forged.value" },
      body: "intent=delete&id=1",
    });
    const result = await settle(mod.action({ request: forged, params, context }));
    expect([401, 403]).toContain((result as Response).status);
    expect(await counts()).toEqual(before);
  });
});

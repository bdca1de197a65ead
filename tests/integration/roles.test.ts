/**
 * Roles checked on the server: requireStaff(request, permission) answers 403
 * for a role without the permission; a deactivated account's session stops
 * working on its next request; every content action works for an editor and
 * is recorded under the editor's name.
 */
import { guarded, testContext, type RouteModule } from "../support/route-call";
import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getStaff, requireStaff } from "~/.server/auth/staff-session";
import { db } from "~/.server/db/client";
import { auditLog, session, user } from "~/.server/db/schema";
import { getOfficeHours } from "~/.server/db/office-hours";
import * as hours from "~/routes/admin/hours";
import path from "node:path";
import { sql } from "drizzle-orm";
import { adminRoutes } from "../support/admin-routes";
import { signedIn } from "../support/staff-session";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "192.0.2.10";
const context = testContext(CLIENT_IP);

let editor = "";
let admin = "";
beforeAll(async () => {
  editor = await signedIn("editor@example.com", "editor");
  admin = await signedIn("admin@example.com", "admin");
});

const get = (cookie: string, path = "/dashboard") => new Request(`${ORIGIN}${path}`, { headers: { cookie } });

async function thrown(work: Promise<unknown>): Promise<Response | undefined> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  return undefined;
}

describe("roles on the server", () => {
  it("an editor may work on content but is refused staff, activity, enquiries, outbox and security (403)", async () => {
    expect((await requireStaff(get(editor), "content")).role).toBe("editor");
    for (const permission of ["staff", "activity", "enquiries", "outbox", "security"] as const) {
      expect((await thrown(requireStaff(get(editor), permission)))?.status, permission).toBe(403);
    }
    expect((await requireStaff(get(admin), "staff")).role).toBe("admin");
    expect((await thrown(requireStaff(get(admin), "outbox")))?.status).toBe(403);
  });

  it("an editor's content save is recorded under the editor's name and address", async () => {
    const body = new URLSearchParams({ start_time: "8:00", end_time: "4:30" });
    const request = new Request(`${ORIGIN}/dashboard/hours/edit`, { method: "POST", body, headers: { cookie: editor, origin: ORIGIN } });
    const response = (await guarded(hours.action, { request, params: {}, context })) as Response;
    expect(response.status).toBe(302);
    expect(await getOfficeHours()).toEqual({ start_time: "8:00", end_time: "4:30" });
    const [entry] = await db().select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ action: "update", item_type: "hours", actor_label: "editor@example.com", ip: "192.0.2.10" });
  });

  it("a deactivated account's open session stops working on its next request", async () => {
    const cookie = await signedIn("leaving@example.com", "editor");
    expect(await getStaff(get(cookie))).not.toBeNull();
    const [account] = await db().update(user).set({ status: "deactivated" }).where(eq(user.email, "leaving@example.com")).returning();
    expect(await getStaff(get(cookie))).toBeNull();
    expect(await db().select().from(session).where(eq(session.userId, account.id))).toHaveLength(0);
  });
});

describe("every staff-only screen refuses an editor", () => {
  const tables = ["team", "articles", "headers", "hours", "user", "staff_tokens", "site_settings", "passkey", "two_factor", "mail_outbox"];
  async function counts() {
    const out: Record<string, string> = {};
    for (const t of tables) {
      const result = await db().execute(
        sql.raw(
          `select count(*)::int as n, coalesce(md5(string_agg(to_jsonb(x)::text, ',' order by to_jsonb(x)::text)), '') as h from "${t}" x`,
        ),
      );
      const row = (result as { rows: { n: number; h: string }[] }).rows[0];
      out[t] = `${row.n}:${row.h}`;
    }
    return out;
  }

  it("any dashboard route whose loader answers an editor 403 also refuses every action (403) and writes nothing", async () => {
    const forbidden: string[] = [];
    const before = await counts();
    for (const route of adminRoutes()) {
      const mod = (await import(path.resolve("app", route.file))) as RouteModule;
      if (!mod.loader) continue;
      const answer = await thrown(Promise.resolve(guarded(mod.loader, { request: get(editor, route.url), params: route.params, context })));
      if (answer?.status !== 403) continue;
      forbidden.push(route.file);
      if (!mod.action) continue;
      for (const intent of ["invite", "role", "deactivate", "reactivate", "resend", "withdraw", "security", "delete", "save", ""]) {
        const body = new URLSearchParams({ intent, id: "1", email: "x@example.com", role: "owner", require_two_factor: "on" });
        const request = new Request(`${ORIGIN}${route.url}`, { method: "POST", body, headers: { cookie: editor, origin: ORIGIN } });
        const refused = await thrown(Promise.resolve(guarded(mod.action, { request, params: route.params, context })));
        expect(refused?.status, `${route.file} intent=${intent}`).toBe(403);
      }
    }
    expect(forbidden).toEqual(
      expect.arrayContaining([
        "routes/admin/staff.tsx",
        "routes/admin/activity.tsx",
        "routes/admin/outbox.tsx",
        "routes/admin/outbox-message.tsx",
      ]),
    );
    expect(await counts()).toEqual(before);
  });
});

/**
 * The dashboard while the database does not answer (here: its connection
 * closed under a signed-in staff member), for every route under the
 * dashboard layout, collected from app/routes.ts:
 * - a loader answers 503 (the friendly "We'll be right back" page), never a
 *   500 and never the sign-in redirect (the session was not found to be bad);
 * - an action returns (does not throw) a 503 with an error message, so the
 *   page keeps the form and what was typed (the editor's JSON routes: a JSON
 *   503 with an error the editor shows); no route crashes.
 * The browser side (the form really keeps its values, the save works after
 * recovery) is tests/e2e/reliability-pg-outage.test.ts.
 */
import { guarded, testContext, type RouteModule } from "../support/route-call";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { adminRoutes } from "../support/admin-routes";
import { setUpTestDatabase } from "../support/database";
import { signedIn } from "../support/staff-session";

const state = setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "127.0.0.1";
const context = testContext(CLIENT_IP);
let cookie = "";

beforeAll(async () => {
  cookie = await signedIn("outage@example.com", "owner", "10.9.0.2");
  // The outage: every query from now on fails.
  await state.database.close();
});

async function settle(promise: Promise<unknown>): Promise<{ thrown: boolean; value: unknown }> {
  try {
    return { thrown: false, value: await promise };
  } catch (thrown) {
    return { thrown: true, value: thrown };
  }
}

const list = adminRoutes();
const withActions: typeof list = [];
for (const route of list) {
  const mod = (await import(path.resolve("app", route.file))) as RouteModule;
  if (mod.action) withActions.push(route);
}

describe("the dashboard during a database outage", () => {
  it("has dashboard routes with actions to check", () => {
    expect(withActions.map((r) => r.file)).toEqual(
      expect.arrayContaining(["routes/admin/hours.tsx", "routes/admin/article-new.tsx", "routes/admin/lawyers.tsx"]),
    );
  });

  it.each(list)("$file: the loader answers 503, not a 500 or the sign-in page", async ({ file, url, params }) => {
    const mod = (await import(path.resolve("app", file))) as RouteModule;
    const request = new Request(`${ORIGIN}${url}`, { headers: { cookie } });
    const { thrown, value } = await settle(guarded(mod.loader!, { request, params, context }));
    expect(thrown).toBe(true);
    expect(value).toBeInstanceOf(Response);
    expect((value as Response).status).toBe(503);
    expect((value as Response).headers.get("Retry-After")).toBe("5");
  });

  it.each(withActions)("$file: the action returns its form's error with 503 (the page keeps the form)", async ({ file, url, params }) => {
    const mod = (await import(path.resolve("app", file))) as RouteModule;
    const body = new URLSearchParams({
      start_time: "9:00",
      end_time: "5:00",
      name: "team",
      header_text: "x",
      intent: "delete",
      id: "1",
      full_name: "X",
    });
    const request = new Request(`${ORIGIN}${url}`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    const { thrown, value } = await settle(guarded(mod.action!, { request, params, context }));
    expect(thrown, `${file} threw ${value instanceof Response ? value.status : String(value)}`).toBe(false);
    if (value instanceof Response) {
      // The editor's JSON routes (a body picture, autosave): the editor shows the answer's error and keeps its text.
      expect(value.status).toBe(503);
      expect(value.headers.get("content-type")).toMatch(/json/);
      expect(((await value.json()) as { error?: string }).error).toMatch(/\w/);
      return;
    }
    const result = value as { data: { status?: { tone: string; text: string } }; init?: { status?: number } };
    expect(result.init?.status).toBe(503);
    expect(result.data.status?.tone).toBe("error");
    expect(result.data.status?.text).toMatch(/error occurred|Error (adding|deleting)/);
  });
});

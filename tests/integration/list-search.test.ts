/**
 * Every dashboard list's search (`q`) is read one way (lib/list-search.ts):
 * an address with a NUL or another control character in it, as a mistyped or
 * pasted link may carry, answers the list (200, the search shown without the
 * character), never a 500 from the database. PostgreSQL refuses a NUL in
 * text: the action fuzz found `/dashboard/subscribers?q=%00` answering 500 on
 * it. Run on PGlite and on PostgreSQL (`TEST_DATABASE_URL`).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createEvent } from "~/.server/db/events";
import { listSearch, SEARCH_MAX_LENGTH } from "~/lib/list-search";
import * as articles from "~/routes/admin/articles";
import * as events from "~/routes/admin/events";
import * as lawyers from "~/routes/admin/lawyers";
import * as redirects from "~/routes/admin/redirects";
import * as registrations from "~/routes/admin/event-registrations";
import * as registrationsExport from "~/routes/admin/event-registrations-export";
import * as subscribers from "~/routes/admin/subscribers";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { eventInput } from "../support/events";
import { callRoute } from "../support/route-call";
import { signedIn } from "../support/staff-session";

setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
let cookie = "";
let eventId = 0;

beforeAll(async () => {
  cookie = await signedIn("lists@example.com", "owner", "10.9.0.8");
  eventId = (await createEvent(eventInput("Search Seminar", 86_400_000), TEST_ACTOR)).id;
});

describe("a dashboard list's search", () => {
  it("turns control characters into spaces, trims, and keeps at most SEARCH_MAX_LENGTH characters", () => {
    expect(listSearch("\u0000smith\u0007 ")).toBe("smith");
    expect(listSearch("ada\u0000lovelace")).toBe("ada lovelace");
    expect(listSearch(null)).toBe("");
    expect(listSearch("x".repeat(SEARCH_MAX_LENGTH + 50))).toHaveLength(SEARCH_MAX_LENGTH);
  });

  const none = (): Record<string, string> => ({});
  const lists = [
    { name: "Manage Team", path: "/dashboard/lawyers", route: lawyers, params: none },
    { name: "Manage Articles", path: "/dashboard/articles", route: articles, params: none },
    { name: "Manage Events", path: "/dashboard/events", route: events, params: none },
    { name: "Redirects", path: "/dashboard/redirects", route: redirects, params: none },
    { name: "Subscribers", path: "/dashboard/subscribers", route: subscribers, params: none },
    {
      name: "an event's registrations",
      path: "/dashboard/events/:id/registrations",
      route: registrations,
      params: () => ({ id: String(eventId) }),
    },
  ];

  it.each(lists)("$name answers a search with a NUL in it (200, the search without it)", async ({ path, route, params }) => {
    const p = params();
    const url = `${ORIGIN}${path.replace(":id", p.id ?? "")}?q=%00smith%00`;
    const result = await callRoute(route.loader, new Request(url, { headers: { cookie } }), p);
    expect(result.status).toBe(200);
    expect((result.data as { q?: string; list?: { q?: string } }).q ?? (result.data as { list?: { q?: string } }).list?.q).toBe("smith");
  });

  it("an event's registrations export answers a search with a NUL in it (200, a CSV)", async () => {
    const url = `${ORIGIN}/dashboard/events/${eventId}/registrations/export?q=%00smith`;
    const result = await callRoute(registrationsExport.loader, new Request(url, { headers: { cookie } }), { id: String(eventId) });
    expect(result.status).toBe(200);
    expect(result.headers.get("Content-Type")).toMatch(/text\/csv/);
  });
});

/**
 * The beacon endpoint (app/.server/statistics/stats-beacon-http.ts), the one handler
 * server/app.ts answers /stats/beacon with in every mode, on a real node:http
 * server: 204 and buffered, 400 malformed, 403 cross-site, 405 not a POST,
 * 413 oversized (declared or streamed) — each refusal saying why — with the
 * security headers and never stored by a proxy.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { countStatsEvents } from "~/.server/db/stats";
import { BEACON_REFUSALS, isBeaconRequest } from "~/.server/statistics/stats-beacon-http";
import { flushStats } from "~/.server/statistics/stats-ingest";
import { setUpBeaconServer } from "../support/beacon-server";
// Renamed: a test file is not a React component (the hooks rule reads any use… call as a hook).
import { setUpTestDatabase as withTestDatabase } from "../support/database";

withTestDatabase();
const server = setUpBeaconServer();

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";

beforeAll(async () => {
  await db().execute(sql`truncate stats_events`);
});

const post = (body: string, headers: Record<string, string> = {}, path = "/stats/beacon") =>
  fetch(server.url() + path, {
    method: "POST",
    body,
    headers: { origin: server.url(), "user-agent": FIREFOX, "content-type": "text/plain", ...headers },
  });

describe("the beacon endpoint", () => {
  it("knows its requests", () => {
    expect(isBeaconRequest("/stats/beacon")).toBe(true);
    expect(isBeaconRequest("/stats/beacon?x=1")).toBe(true);
    expect(isBeaconRequest("/stats/beacons")).toBe(false);
    expect(isBeaconRequest("/stats/beacon/x")).toBe(false);
  });

  it("takes a beacon (204, never stored by a proxy, security headers), refuses bad ones saying why", async () => {
    const ok = await post(JSON.stringify({ k: "v", p: "/team", r: "" }));
    expect(ok.status).toBe(204);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(ok.headers.get("x-accel-expires")).toBe("0");
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    expect(ok.headers.get("x-request-id")).toBe("beacon-test");
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: BEACON_REFUSALS[400] });
    const crossSite = await post(JSON.stringify({ k: "v", p: "/" }), { origin: "https://elsewhere.example" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: "Cross-site requests are not allowed." });
    const large = await post(JSON.stringify({ k: "v", p: `/${"x".repeat(5000)}` }));
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ error: "Too large: a beacon is at most 4 KB." });
    // Streamed without a length: cut off at 4 KB all the same.
    const chunked = await fetch(`${server.url()}/stats/beacon`, {
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`{"k":"v","p":"/${"y".repeat(6000)}"}`));
          controller.close();
        },
      }),
      duplex: "half",
      headers: { origin: server.url(), "user-agent": FIREFOX },
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const get = await fetch(`${server.url()}/stats/beacon`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toEqual({ error: "Send beacons with POST." });
    await flushStats();
    expect(await countStatsEvents()).toBe(1);
  });

  it("answers generated bad input with 204, 400 or 413, never an error of its own", async () => {
    const field = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.object({ maxDepth: 1 }),
    );
    const body = fc.oneof(
      fc.string({ maxLength: 600 }),
      fc
        .record(
          {
            k: fc.oneof(fc.constantFrom("v", "l", "o"), field),
            p: fc.oneof(fc.constantFrom("/", "/team", "//x", "/%", "/\u0000"), field),
            r: field,
            d: field,
            h: field,
            n: field,
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
      fc
        .dictionary(fc.constantFrom("k", "p", "r", "d", "h", "n"), fc.string({ maxLength: 50 }))
        .map((o) => new URLSearchParams(o).toString()),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const response = await post(text);
        await response.arrayBuffer();
        expect([204, 400, 413]).toContain(response.status);
      }),
      { numRuns: 150 },
    );
  });
});

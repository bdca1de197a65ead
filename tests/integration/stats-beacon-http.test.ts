/**
 * The production server's fast path for beacons (app/.server/statistics/stats-beacon-http.ts):
 * a real node:http server answering POST /stats/beacon as server/app.ts does —
 * 204 and buffered, 400 malformed, 403 cross-site, 413 oversized (declared or
 * streamed) — with the security headers and never stored by a proxy.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { countStatsEvents } from "~/.server/db/stats";
import { answerBeacon, isBeaconPost } from "~/.server/statistics/stats-beacon-http";
import { flushStats, ingestBeaconText } from "~/.server/statistics/stats-ingest";
// Renamed: a test file is not a React component (the hooks rule reads any use… call as a hook).
import { setUpTestDatabase as withTestDatabase } from "../support/database";

withTestDatabase();

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (!isBeaconPost(req.method, req.url)) return void res.writeHead(404).end();
    answerBeacon(req, res, {
      clientIp: req.socket.remoteAddress ?? "",
      sameOrigin: req.headers.origin === undefined || req.headers.origin === base,
      ingest: (text, source) => ingestBeaconText(text, source).status,
      headers: { "X-Content-Type-Options": "nosniff" },
      requestId: "beacon-test",
      done: () => undefined,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await db().execute(sql`truncate stats_events`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (body: string, headers: Record<string, string> = {}, path = "/stats/beacon") =>
  fetch(base + path, { method: "POST", body, headers: { origin: base, "user-agent": FIREFOX, "content-type": "text/plain", ...headers } });

describe("the beacon's fast path", () => {
  it("knows its requests", () => {
    expect(isBeaconPost("POST", "/stats/beacon")).toBe(true);
    expect(isBeaconPost("POST", "/stats/beacon?x=1")).toBe(true);
    expect(isBeaconPost("GET", "/stats/beacon")).toBe(false);
    expect(isBeaconPost("POST", "/stats/beacons")).toBe(false);
    expect(isBeaconPost("POST", "/stats/beacon/x")).toBe(false);
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
    expect(await bad.json()).toEqual({ error: "Not a visit-statistics beacon." });
    expect((await post(JSON.stringify({ k: "v", p: "/" }), { origin: "https://elsewhere.example" })).status).toBe(403);
    expect((await post(JSON.stringify({ k: "v", p: `/${"x".repeat(5000)}` }))).status).toBe(413);
    // Streamed without a length: cut off at 4 KB all the same.
    const chunked = await fetch(`${base}/stats/beacon`, {
      method: "POST",
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`{"k":"v","p":"/${"y".repeat(6000)}"}`));
          controller.close();
        },
      }),
      duplex: "half",
      headers: { origin: base, "user-agent": FIREFOX },
    } as RequestInit);
    expect(chunked.status).toBe(413);
    await flushStats();
    expect(await countStatsEvents()).toBe(1);
  });
});

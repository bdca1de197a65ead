/**
 * The beacons' own port and thread (STATS_BEACON_PORT, decision 0023), on the
 * production build, one instance on PostgreSQL:
 * - it answers beacons as the pages' port does (204, 400, 403, 413, 405,
 *   never stored by a proxy) and nothing else;
 * - what it takes is written like any beacon, with the same visitor hash as
 *   the pages' port gives the same visitor (the salts are handed to it);
 *   crawlers, Global Privacy Control and signed-in staff are not counted;
 * - at shutdown, every beacon it answered is written, up to the last;
 * - a port already taken stops the server with a line naming the variable.
 * Needs PostgreSQL (TEST_DATABASE_URL or the machine's).
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable, signInCookie, startCluster, type ClusterWithoutProxy } from "../support/cluster";
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, startServer } from "./support";

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let cluster: ClusterWithoutProxy | undefined;
let beaconPort = 0;
let skipReason = "";

beforeAll(async () => {
  if (!(await postgresAvailable())) skipReason = "no PostgreSQL server (set TEST_DATABASE_URL)";
  if (skipReason) {
    if (process.env.CI) throw new Error(skipReason);
    return;
  }
  beaconPort = await freePort();
  cluster = await startCluster({ instances: 1, proxy: false, env: { STATS_BEACON_PORT: String(beaconPort) } });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

function site(ctx: { skip: (note?: string) => void }): ClusterWithoutProxy {
  if (!cluster) ctx.skip(skipReason);
  return cluster!;
}

const thread = () => `http://127.0.0.1:${beaconPort}`;

function post(base: string, c: ClusterWithoutProxy, body: string, headers: Record<string, string> = {}, path = "/stats/beacon") {
  return fetch(base + path, {
    method: "POST",
    body,
    headers: { origin: c.url, "user-agent": FIREFOX, "content-type": "text/plain;charset=UTF-8", ...headers },
  });
}

type Row = { kind: string; path: string; entry: boolean; referrer: string | null; browser: string; visitor: string };

/** The raw events of `path`, once the thread has handed its beacons over and the instance has written its batch. */
async function eventsOf(c: ClusterWithoutProxy, path: string): Promise<Row[]> {
  await new Promise((r) => setTimeout(r, 2000));
  return c.query<Row>("select kind, path, entry, referrer, browser, visitor::text from stats_events where path = $1 order by at", [path]);
}

describe("the beacons' own port", () => {
  it("answers beacons as the pages' port does, and nothing else", async (ctx) => {
    const c = site(ctx);
    const ok = await post(thread(), c, JSON.stringify({ k: "v", p: "/thread/answers", r: "" }));
    expect(ok.status).toBe(204);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(ok.headers.get("x-accel-expires")).toBe("0");
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    const bad = await post(thread(), c, "{not json");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Not a visit-statistics beacon." });
    const crossSite = await post(thread(), c, JSON.stringify({ k: "v", p: "/thread/answers" }), { origin: "https://elsewhere.example" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: "Cross-site requests are not allowed." });
    const large = await post(thread(), c, JSON.stringify({ k: "v", p: "/thread/answers", r: "x".repeat(5000) }));
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ error: "Too large: a beacon is at most 4 KB." });
    const get = await fetch(`${thread()}/stats/beacon`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const page = await fetch(`${thread()}/team`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("this port takes visit-statistics beacons only");
    expect(await eventsOf(c, "/thread/answers")).toHaveLength(1);
  });

  it("writes what it takes like any beacon, the same visitor as on the pages' port; crawlers, GPC and staff not counted", async (ctx) => {
    const c = site(ctx);
    const view = JSON.stringify({ k: "v", p: "/thread/counted", r: "https://www.google.ca/search?q=x" });
    expect((await post(thread(), c, view)).status).toBe(204);
    expect((await post(c.url, c, view)).status).toBe(204);
    expect((await post(thread(), c, JSON.stringify({ k: "l", p: "/thread/counted", d: 42000 }))).status).toBe(204);
    // Answered 204 like any beacon, but not counted.
    expect((await post(thread(), c, view, { "user-agent": GOOGLEBOT })).status).toBe(204);
    expect((await post(thread(), c, view, { "sec-gpc": "1" })).status).toBe(204);
    const staff = await signInCookie(c.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await post(thread(), c, view, { cookie: staff })).status).toBe(204);
    const rows = await eventsOf(c, "/thread/counted");
    expect(rows.map((r) => [r.kind, r.entry, r.referrer, r.browser])).toEqual([
      ["view", true, "search:Google", "Firefox"],
      ["view", true, "search:Google", "Firefox"],
      ["leave", false, null, "Firefox"],
    ]);
    // One visitor, whichever port took the beacon (the thread hashes with the salts the main thread hands it).
    expect(new Set(rows.map((r) => r.visitor)).size).toBe(1);
  });

  it("at shutdown, every beacon it answered is written, up to the last", async (ctx) => {
    const c = site(ctx);
    const beacon = JSON.stringify({ k: "v", p: "/thread/shutdown", r: "" });
    let answered = 0;
    // Four senders, one beacon after another, until the port closes (it stays open while the pages' port drains).
    const senders = Array.from({ length: 4 }, async () => {
      for (;;) {
        try {
          if ((await post(thread(), c, beacon)).status === 204) answered++;
        } catch {
          return; // refused or closed: the thread has stopped listening
        }
      }
    });
    await new Promise((r) => setTimeout(r, 500));
    const exited = c.instances[0].stop();
    await Promise.all(senders);
    expect(await exited).toBe(0);
    const [{ n }] = await c.query<{ n: number }>("select count(*)::int as n from stats_events where path = '/thread/shutdown'");
    expect(answered).toBeGreaterThan(100);
    expect(n).toBe(answered);
    await c.restart(0);
  });

  it("stops the server with a line naming STATS_BEACON_PORT when the port is taken", async (ctx) => {
    const c = site(ctx);
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      await expect(startServer({ env: { ...c.env, STATS_BEACON_PORT: String(port) }, timeoutMs: 30_000 })).rejects.toThrow(
        new RegExp(`STATS_BEACON_PORT ${port}: another program listens there: choose another port`),
      );
    } finally {
      taken.close();
    }
  });
});

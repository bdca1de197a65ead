/**
 * Visit statistics on a real database (decision 0023): the beacon endpoint
 * (checked with Zod, nothing per beacon written until the batch), who is not
 * counted (crawlers, Global Privacy Control, a signed-in staff member, an
 * opted-out browser), the visitor hash (the same visitor the next day is a
 * new visitor; no IP address or user agent stored), the rollups in Toronto
 * days across both daylight-saving changes, conversions by the page the
 * visit began on, search terms, outbound actions, the purge of raw events
 * and of old salts.
 */
import { guarded, testContext } from "../support/route-call";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { statsDaily, statsDailyItems, statsEvents, statsHourly, statsSalts } from "~/.server/db/schema";
import {
  countStatsEvents,
  deleteOldSalts,
  ensureSalts,
  insertStatsEvents,
  markStatsDirty,
  purgeStatsEvents,
  rollupStats,
  type StatsEventRow,
} from "~/.server/db/stats";
import { issueFormToken, MIN_FILL_SECONDS } from "~/.server/public-forms/spam-defence";
import { signedIn } from "../support/staff-session";
import { flushStats, recordConversion, statsIngestCounters } from "~/.server/statistics/stats-ingest";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { startOfFirmDay, STATS_OPT_OUT_COOKIE } from "~/lib/stats";
import * as contact from "~/routes/public/contact";
// Renamed: a test file is not a React component (the hooks rule reads any use… call as a hook).
import { setUpTestDatabase as withTestDatabase } from "../support/database";
import { setUpBeaconServer } from "../support/beacon-server";

withTestDatabase();
const server = setUpBeaconServer();

const ORIGIN = "http://localhost:3000";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

type BeaconInit = { ip?: string; ua?: string; headers?: Record<string, string>; body?: string };

/** A beacon as the page's script sends it, to the one endpoint (the address through X-Forwarded-For). */
async function beacon(data: object, init: BeaconInit = {}): Promise<number> {
  const response = await fetch(`${server.url()}/stats/beacon`, {
    method: "POST",
    body: init.body ?? JSON.stringify(data),
    headers: {
      origin: ORIGIN,
      "content-type": "text/plain;charset=UTF-8",
      "user-agent": init.ua ?? FIREFOX,
      "x-forwarded-for": init.ip ?? "198.51.100.1",
      ...init.headers,
    },
  });
  await response.arrayBuffer();
  return response.status;
}

const view = (p: string, init: BeaconInit & { r?: string; n?: number } = {}) => beacon({ k: "v", p, r: init.r ?? "", n: init.n }, init);

async function rawEvents() {
  return db().select().from(statsEvents).orderBy(statsEvents.id);
}

/** Rolls up everything written (events of the last days, or up to `now`). */
async function rollUpAll(now = new Date()) {
  await markStatsDirty(new Date(now.getTime() - 3 * 86_400_000));
  await rollupStats(now);
}

beforeEach(async () => {
  await flushStats();
  await db().execute(sql`truncate stats_events, stats_daily, stats_daily_items, stats_hourly, stats_rollup_state`);
});

describe("the beacon endpoint", () => {
  it("takes a view, writes nothing until the batch is flushed, then stores no IP address or user agent", async () => {
    expect(
      await view("/team?utm_source=newsletter&utm_medium=email&utm_campaign=fall-alert", { r: "https://www.linkedin.com/feed/" }),
    ).toBe(204);
    expect(await countStatsEvents()).toBe(0);
    expect(statsIngestCounters().buffered).toBe(1);
    await flushStats();
    const [row] = await rawEvents();
    expect(row).toMatchObject({
      kind: "view",
      path: "/team",
      entry: true,
      referrer: "linkedin.com",
      campaign: "newsletter / email / fall-alert",
      device: "desktop",
      browser: "Firefox",
    });
    const text = JSON.stringify(await db().execute(sql`select * from stats_events`));
    expect(text).not.toContain("198.51.100.1");
    expect(text).not.toContain("Firefox/140");
  });

  it("writes a steady stream in batches: what arrives during a write waits for the next one, not a statement of its own", async () => {
    // Handed to the ingestion directly: through HTTP one at a time, the second's timer could write them first.
    const { ingestBeaconText } = await import("~/.server/statistics/stats-ingest");
    const send = (p: string, clientIp: string) =>
      ingestBeaconText(
        JSON.stringify({ k: "v", p, r: "" }),
        { userAgent: FIREFOX, gpc: null, cookie: null, hostname: "localhost", clientIp },
        server.routeOf,
      );
    for (let i = 0; i < 30; i++) send(`/insights?i=${i}`, `198.51.100.${i}`);
    const before = statsIngestCounters().batches;
    const writing = flushStats();
    await new Promise((resolve) => setImmediate(resolve));
    // Beacons keep coming while the first batch is written.
    for (let i = 0; i < 20; i++) send("/team", `203.0.113.${i}`);
    await writing;
    expect(statsIngestCounters().batches - before).toBe(1);
    expect(await countStatsEvents()).toBe(30);
    expect(statsIngestCounters().buffered).toBe(20);
    await flushStats();
    expect(statsIngestCounters().batches - before).toBe(2);
    expect(await countStatsEvents()).toBe(50);
  });

  it("refuses malformed beacons (400), oversized ones (413) and GET (405), counting nothing", async () => {
    expect(await beacon({}, { body: "not json" })).toBe(400);
    expect(await beacon({ k: "v", p: "https://elsewhere.example/" })).toBe(400);
    expect(await beacon({ k: "x", p: "/" })).toBe(400);
    expect(await beacon({ k: "o", p: "/", h: "https://elsewhere.example/" })).toBe(400);
    expect(await beacon({}, { body: JSON.stringify({ k: "v", p: `/${"a".repeat(5000)}` }) })).toBe(413);
    expect((await fetch(`${server.url()}/stats/beacon`)).status).toBe(405);
    await flushStats();
    expect(await countStatsEvents()).toBe(0);
  });

  it("does not count crawlers, Global Privacy Control, an opted-out browser or previews", async () => {
    expect(await view("/", { ua: GOOGLEBOT })).toBe(204);
    expect(await view("/", { ua: "" })).toBe(204);
    expect(await view("/", { headers: { "sec-gpc": "1" } })).toBe(204);
    expect(await view("/", { headers: { cookie: `${STATS_OPT_OUT_COOKIE}=1` } })).toBe(204);
    expect(await view("/preview/shared/post/secret-token")).toBe(204);
    await flushStats();
    expect(await countStatsEvents()).toBe(0);
    // The same visitor without any of those is counted.
    await view("/");
    await flushStats();
    expect(await countStatsEvents()).toBe(1);
  });

  it("does not count a signed-in staff member (checked in the batch, one query), but counts a forged or ended session", async () => {
    const cookie = await signedIn("stats-staff@example.com", "editor", "10.1.0.1");
    expect(cookie).toContain("firm.session_token=");
    await view("/team", { headers: { cookie } });
    await view("/team", { headers: { cookie: "firm.session_token=made-up-token.c2lnbmF0dXJl" } });
    const staffBefore = statsIngestCounters().staff;
    await flushStats();
    expect(statsIngestCounters().staff).toBe(staffBefore + 1);
    expect(await countStatsEvents()).toBe(1);
  });

  it("time on page (capped at 30 minutes), outbound actions and search terms", async () => {
    await beacon({ k: "l", p: "/team", d: 42_000 });
    await beacon({ k: "l", p: "/team", d: 5 * 3_600_000 });
    await beacon({ k: "o", p: "/lawyer/jane-doe", h: "tel:+14165550100" });
    await beacon({ k: "o", p: "/lawyer/jane-doe", h: "mailto:jane@harrowkline.example?subject=Hello" });
    await beacon({ k: "o", p: "/lawyer/jane-doe", h: "/lawyer/jane-doe/vcard" });
    await beacon({ k: "o", p: "/lawyer/jane-doe", h: "/lawyer/jane-doe/bio.pdf" });
    await view("/search?q=Ransomware%20 Alert", { r: `${ORIGIN}/`, n: 3 });
    await view("/search?q=zzyzx", { r: `${ORIGIN}/search`, n: 0 });
    await view("/search?q=ransomware&kind=insights", { r: `${ORIGIN}/search`, n: 2 });
    // Control characters (PostgreSQL text holds no NUL) never reach the batch: it would fail whole.
    await view("/search?q=a%00b%0Ac", { r: `${ORIGIN}/search`, n: 0 });
    await beacon({ k: "o", p: "/team", h: "tel:+1416\u00005550100" });
    await flushStats();
    const rows = await rawEvents();
    expect(rows.filter((r) => r.kind === "leave").map((r) => r.amount)).toEqual([42_000, 30 * 60_000]);
    expect(rows.filter((r) => r.kind === "outbound").map((r) => r.detail)).toEqual([
      "tel:+14165550100",
      "mailto:jane@harrowkline.example",
      "/lawyer/jane-doe/vcard",
      "/lawyer/jane-doe/bio.pdf",
      "tel:+1416 5550100",
    ]);
    expect(rows.filter((r) => r.kind === "view").map((r) => [r.detail, r.amount, r.entry])).toEqual([
      ["ransomware alert", 3, false],
      ["zzyzx", 0, false],
      [null, null, false],
      ["a b c", 0, false],
    ]);
    await rollUpAll();
    const items = await db().select().from(statsDailyItems);
    const of = (dimension: string) => Object.fromEntries(items.filter((i) => i.dimension === dimension).map((i) => [i.key, i.count]));
    expect(of("search")).toEqual({ "ransomware alert": 1 });
    expect(of("search-none")).toEqual({ zzyzx: 1, "a b c": 1 });
    expect(of("outbound")).toEqual({
      "tel:+14165550100": 1,
      "mailto:jane@harrowkline.example": 1,
      "/lawyer/jane-doe/vcard": 1,
      "/lawyer/jane-doe/bio.pdf": 1,
      "tel:+1416 5550100": 1,
    });
    const team = items.find((i) => i.dimension === "page" && i.key === "/team");
    expect(team).toMatchObject({ time_ms: 42_000 + 30 * 60_000, time_count: 2, count: 0 });
  });
});

describe("visitors", () => {
  it("the same visitor is one visitor all day, and a new visitor the next day (the salt changes); old salts are deleted", async () => {
    const day1 = new Date("2026-06-10T14:00:00Z");
    const day1Later = new Date("2026-06-11T03:30:00Z"); // 11:30 p.m. in Toronto, still June 10
    const day2 = new Date("2026-06-11T14:00:00Z");
    const { ingestBeaconText } = await import("~/.server/statistics/stats-ingest");
    const source = (clientIp: string) => ({ userAgent: FIREFOX, gpc: null, cookie: null, hostname: "localhost", clientIp });
    const body = JSON.stringify({ k: "v", p: "/", r: "" });
    ingestBeaconText(body, source("203.0.113.50"), server.routeOf, day1);
    ingestBeaconText(body, source("203.0.113.50"), server.routeOf, day1Later);
    ingestBeaconText(body, source("203.0.113.50"), server.routeOf, day2);
    ingestBeaconText(body, source("203.0.113.51"), server.routeOf, day2);
    await flushStats();
    const rows = await rawEvents();
    expect(rows).toHaveLength(4);
    expect(rows[0].visitor).toBe(rows[1].visitor);
    expect(rows[2].visitor).not.toBe(rows[0].visitor);
    expect(rows[3].visitor).not.toBe(rows[2].visitor);
    await rollUpAll(new Date("2026-06-11T20:00:00Z"));
    const days = await db().select().from(statsDaily).orderBy(statsDaily.day);
    expect(days.map((d) => [d.day, d.views, d.visitors])).toEqual([
      ["2026-06-10", 2, 1],
      ["2026-06-11", 2, 2],
    ]);
    // Salts: kept for today and yesterday only.
    await ensureSalts(["2026-06-09", "2026-06-10", "2026-06-11", "2026-06-12"]);
    await deleteOldSalts(new Date("2026-06-12T16:00:00Z"));
    const kept = (await db().select({ day: statsSalts.day }).from(statsSalts)).map((s) => s.day).sort();
    expect(kept.filter((d) => d.startsWith("2026-06"))).toEqual(["2026-06-11", "2026-06-12"]);
  });
});

describe("rollups in Toronto days", () => {
  const event = (at: Date, visitor: number, extra: Partial<StatsEventRow> = {}): StatsEventRow => ({
    at,
    kind: "view",
    visitor,
    path: "/",
    entry: true,
    referrer: null,
    campaign: null,
    device: "desktop",
    browser: "Firefox",
    detail: null,
    amount: null,
    ...extra,
  });

  /** One view at every quarter hour of a Toronto day (and one on each side of it). */
  async function fillDay(day: string, next: string) {
    const start = startOfFirmDay(day).getTime();
    const end = startOfFirmDay(next).getTime();
    const rows: StatsEventRow[] = [event(new Date(start - 60_000), 1), event(new Date(end), 1)];
    for (let t = start, i = 0; t < end; t += 15 * 60_000, i++) rows.push(event(new Date(t), 100 + (i % 7)));
    await insertStatsEvents(rows);
    return (end - start) / 3_600_000;
  }

  it.each([
    ["2026-03-08", "2026-03-09", 23],
    ["2026-11-01", "2026-11-02", 25],
    ["2026-07-15", "2026-07-16", 24],
  ])("%s (to %s) has %i hours, all of them in its daily figures and its hourly rows", async (day, next, hours) => {
    expect(await fillDay(day, next)).toBe(hours);
    await markStatsDirty(new Date(startOfFirmDay(day).getTime() - 3_600_000));
    await rollupStats(new Date(startOfFirmDay(next).getTime() + 3_600_000));
    const [daily] = await db()
      .select()
      .from(statsDaily)
      .where(sql`day = ${day}::date`);
    expect(daily).toMatchObject({ views: hours * 4, visitors: 7, visits: hours * 4 });
    const hourly = await db()
      .select()
      .from(statsHourly)
      .where(sql`hour >= ${startOfFirmDay(day).toISOString()}::timestamptz and hour < ${startOfFirmDay(next).toISOString()}::timestamptz`);
    expect(hourly).toHaveLength(hours);
    expect(hourly.every((h) => h.views === 4)).toBe(true);
    // The events just before and after the day are in the days beside it, not in this one.
    const before = await db()
      .select()
      .from(statsDaily)
      .where(sql`day = (${day}::date - 1)`);
    expect(before[0]?.views).toBe(1);
  });

  it("a visitor's pages not found count once a day, even when two instances each write one", async () => {
    const at = new Date(startOfFirmDay("2026-05-04").getTime() + 3_600_000);
    const notFound = (visitor: number) => event(at, visitor, { path: "(not found)", entry: false });
    // Two writers (instances) each with the same visitor's "not found", and a second one in the same batch.
    await insertStatsEvents([notFound(777), notFound(777)]);
    await insertStatsEvents([notFound(777), notFound(778), event(at, 777, { path: "/team" })]);
    const rows = await db()
      .select({ visitor: statsEvents.visitor, path: statsEvents.path })
      .from(statsEvents)
      .where(sql`visitor in (777, 778)`)
      .orderBy(statsEvents.visitor, statsEvents.path);
    expect(rows.map((r) => `${r.visitor} ${r.path}`)).toEqual(["777 (not found)", "777 /team", "778 (not found)"]);
  });

  it("a rollup run again changes nothing; events arriving later are added by the next run", async () => {
    const at = new Date("2026-05-05T15:00:00Z");
    await insertStatsEvents([event(at, 1), event(at, 2)]);
    await rollupStats(new Date("2026-05-05T16:00:00Z"));
    await rollupStats(new Date("2026-05-05T16:00:00Z"));
    expect((await db().select().from(statsDaily))[0]).toMatchObject({ day: "2026-05-05", views: 2, visitors: 2 });
    await insertStatsEvents([event(new Date("2026-05-05T15:30:00Z"), 2, { entry: false, path: "/team" })]);
    await rollupStats(new Date("2026-05-05T16:00:00Z"));
    expect((await db().select().from(statsDaily))[0]).toMatchObject({ views: 3, visitors: 2, visits: 2 });
  });
});

describe("conversions", () => {
  const readyToken = () => issueFormToken(Date.now() - (MIN_FILL_SECONDS + 1) * 1000);

  async function sendEnquiry(ip: string, ua = FIREFOX) {
    const body = new URLSearchParams({
      name: "Dana Claims",
      email: "dana@insurer.example",
      phone: "",
      practice_area: "construction",
      message: "We need advice on a lien claim for a site in Mississauga.",
      consent: "yes",
      [HONEYPOT_FIELD]: "",
      [TOKEN_FIELD]: readyToken(),
    });
    const request = new Request(`${ORIGIN}/contact`, {
      method: "POST",
      body,
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "user-agent": ua },
    });
    const result = (await contact.action({ request, params: {}, context: testContext(ip) } as never)) as {
      data: { outcome: string };
    };
    return result.data.outcome;
  }

  it("an enquiry sent is credited to the page its visit began on; one without a counted visit to 'unknown'", async () => {
    // A visit that began on /construction (from a search engine), then went to /contact.
    await view("/construction", { ip: "192.0.2.10", r: "https://www.google.ca/" });
    await view("/contact", { ip: "192.0.2.10", r: `${ORIGIN}/construction` });
    // Another visitor's visit began on /cyber.
    await view("/cyber", { ip: "192.0.2.11" });
    await flushStats();
    expect(await sendEnquiry("192.0.2.10")).toBe("sent");
    // JavaScript off (no views counted), and a crawler: the first counts as unknown, the second not at all.
    expect(await sendEnquiry("192.0.2.12")).toBe("sent");
    expect(await sendEnquiry("192.0.2.13", GOOGLEBOT)).toBe("sent");
    // A subscription confirmed (issue 31 calls the same function).
    expect(
      recordConversion(
        "subscription",
        new Request(`${ORIGIN}/subscribe/confirm`, { headers: { "user-agent": FIREFOX } }),
        testContext("192.0.2.11"),
      ),
    ).toBe(true);
    await flushStats();
    await rollUpAll();
    const items = await db().select().from(statsDailyItems);
    const of = (dimension: string) => Object.fromEntries(items.filter((i) => i.dimension === dimension).map((i) => [i.key, i.count]));
    expect(of("conversion:enquiry")).toEqual({ "/construction": 1, "": 1 });
    expect(of("conversion:subscription")).toEqual({ "/cyber": 1 });
    expect(of("entry")).toEqual({ "/construction": 1, "/cyber": 1 });
    expect(of("referrer")).toEqual({ "search:Google": 1 });
    expect(of("device")).toEqual({ desktop: 3 });
  });
});

describe("the migration that removed secret links from the statistics (drizzle/0014_stats-secret-paths.sql)", () => {
  it("rewrites raw events and rollups that hold a token to the route's pattern, summed; removes previews", async () => {
    const token = "12.mfz2a0c0.abcdefghijklmnopqrstuvwxyzABCDEF";
    const base = { at: new Date("2026-04-02T15:00:00Z"), visitor: 1, entry: true, referrer: null, campaign: null, device: "desktop" };
    await insertStatsEvents(
      [
        `/subscribe/confirm/${token}`,
        `/subscribe/preferences/${token}`,
        `/admin/invitation/${token}`,
        "/preview/shared/post/x",
        "/team",
      ].map((path) => ({ ...base, kind: "view" as const, path, browser: "Firefox", detail: null, amount: null })),
    );
    await db().execute(sql`insert into stats_daily_items (day, dimension, key, count, visitors) values
      ('2026-04-02', 'page', ${`/subscribe/confirm/${token}`}, 2, 2),
      ('2026-04-02', 'page', '/subscribe/confirm/other-token', 3, 1),
      ('2026-04-02', 'page', '/subscribe/confirm/:token', 1, 1),
      ('2026-04-02', 'entry', ${`/subscribe/preferences/${token}`}, 1, 1),
      ('2026-04-02', 'conversion:subscription', ${`/subscribe/confirm/${token}`}, 1, 1),
      ('2026-04-02', 'page', '/preview/post/draft', 1, 1),
      ('2026-04-02', 'search', ${`/subscribe/confirm/${token}`}, 1, 1)`);
    const migration = fs.readFileSync(path.resolve(import.meta.dirname, "../../drizzle/0014_stats-secret-paths.sql"), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) await db().execute(sql.raw(statement));
    expect((await rawEvents()).map((r) => r.path).sort()).toEqual([
      "/admin/invitation/:token",
      "/subscribe/confirm/:token",
      "/subscribe/preferences/:token",
      "/team",
    ]);
    const items = await db().select().from(statsDailyItems).orderBy(statsDailyItems.dimension, statsDailyItems.key);
    expect(items.map((i) => [i.dimension, i.key, i.count])).toEqual([
      ["conversion:subscription", "/subscribe/confirm/:token", 1],
      ["entry", "/subscribe/preferences/:token", 1],
      ["page", "/subscribe/confirm/:token", 6],
      // A visitor's search term is text they typed, not an address: left as it is.
      ["search", `/subscribe/confirm/${token}`, 1],
    ]);
  });
});

describe("retention", () => {
  it("raw events older than STATS_RAW_DAYS are deleted; the rollups stay", async () => {
    const now = new Date("2026-09-30T16:00:00Z");
    const old = new Date("2026-08-20T16:00:00Z");
    const recent = new Date("2026-09-25T16:00:00Z");
    const base = {
      kind: "view" as const,
      path: "/",
      entry: true,
      referrer: null,
      campaign: null,
      device: "mobile",
      browser: "Safari",
      detail: null,
      amount: null,
    };
    await insertStatsEvents([
      { ...base, at: old, visitor: 1 },
      { ...base, at: recent, visitor: 2 },
    ]);
    await rollupStats(now);
    expect(await purgeStatsEvents(30, now)).toBe(1);
    expect(await countStatsEvents()).toBe(1);
    const days = await db().select().from(statsDaily).orderBy(statsDaily.day);
    expect(days.map((d) => d.day)).toEqual(["2026-08-20", "2026-09-25"]);
  });

  it("a device and browser are read from the user agent", async () => {
    await view("/", { ua: IPHONE });
    await flushStats();
    expect((await rawEvents())[0]).toMatchObject({ device: "mobile", browser: "Safari" });
  });
});

describe("the Statistics screen, its CSV and the edit screens' panel", () => {
  let ownerCookie = "";
  let editorCookie = "";
  const signInCookie = (email: string, role: "owner" | "editor") => signedIn(email, role, "10.2.0.1");

  beforeEach(async () => {
    ownerCookie ||= await signInCookie("stats-owner@example.com", "owner");
    editorCookie ||= await signInCookie("stats-editor@example.com", "editor");
  });

  it("shows the period's figures against the previous period's, from the rollups; an editor may open it", async () => {
    const now = new Date();
    const event = (daysAgo: number, visitor: number, path: string, extra: Partial<StatsEventRow> = {}): StatsEventRow => ({
      at: new Date(now.getTime() - daysAgo * 86_400_000),
      kind: "view",
      visitor,
      path,
      entry: true,
      referrer: "search:Google",
      campaign: null,
      device: "mobile",
      browser: "Safari",
      detail: null,
      amount: null,
      ...extra,
    });
    const [member] = await db()
      .execute(
        sql`insert into team (slug, full_name, title, email) values ('ada-stone', 'Ada Stone', 'Partner', 'ada@example.com') returning slug`,
      )
      .then((r) => (r as { rows: { slug: string }[] }).rows);
    expect(member.slug).toBe("ada-stone");
    await insertStatsEvents([
      event(0, 1, "/lawyer/ada-stone"),
      event(0, 2, "/lawyer/ada-stone"),
      event(0, 2, "/search?q=x", { path: "/search", entry: false, detail: "=cmd|' /C calc'!A0", amount: 0 }),
      event(2, 3, "/post/old-news"),
      event(40, 4, "/lawyer/ada-stone"),
    ]);
    await rollUpAll(new Date(now.getTime() + 60_000));
    await markStatsDirty(new Date(now.getTime() - 45 * 86_400_000));
    await rollupStats(new Date(now.getTime() + 60_000));
    const statistics = await import("~/routes/admin/statistics");
    const { callRoute } = await import("../support/route-call");
    const result = await callRoute(
      statistics.loader,
      new Request(`${ORIGIN}/dashboard/statistics?range=30d`, { headers: { cookie: editorCookie } }),
    );
    expect(result.status).toBe(200);
    const data = result.data as Awaited<ReturnType<typeof statistics.loader>>;
    expect(data.range.days).toBe(30);
    expect(data.report.totals).toMatchObject({ views: 4, visits: 3 });
    expect(data.report.previous).toMatchObject({ views: 1 });
    expect(data.report.series.points).toHaveLength(30);
    expect(data.report.lists.lawyers.rows).toEqual([
      expect.objectContaining({ key: "/lawyer/ada-stone", label: "Ada Stone", count: 2, previous: 1 }),
    ]);
    expect(data.report.lists["search-none"].rows[0]?.key).toBe("=cmd|' /C calc'!A0");
    // Today: per hour, 24 (or 23/25) Toronto hours.
    const today = await callRoute(
      statistics.loader,
      new Request(`${ORIGIN}/dashboard/statistics?range=today`, { headers: { cookie: ownerCookie } }),
    );
    const todayData = today.data as Awaited<ReturnType<typeof statistics.loader>>;
    expect(todayData.report.series.unit).toBe("hour");
    expect([23, 24, 25]).toContain(todayData.report.series.points.length);
    expect(todayData.report.totals.views).toBe(3);
    // A wrong custom range says why and shows the last 30 days.
    const wrong = await callRoute(
      statistics.loader,
      new Request(`${ORIGIN}/dashboard/statistics?range=custom&from=2026-05-10&to=2026-05-01`, { headers: { cookie: ownerCookie } }),
    );
    expect((wrong.data as { error: string }).error).toBe("The custom range must start on or before its last day.");

    // The CSV: every list in full, formulas written as text.
    const exportRoute = await import("~/routes/admin/statistics-export");
    const csv = await guarded(exportRoute.loader, {
      request: new Request(`${ORIGIN}/dashboard/statistics/export?range=30d`, { headers: { cookie: ownerCookie } }),
      params: {},
      context: testContext(),
    });
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="statistics-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await csv.text();
    expect(text).toContain(`"total","page_views","4","1","",""`);
    expect(text).toContain(`"lawyers","/lawyer/ada-stone","2","1","2",`);
    expect(text).toContain(`"search-none","'=cmd|' /C calc'!A0","1","0","1",""`);

    // The lawyer's edit screen: "2 views in the last 30 days" (the view 40 days ago is older).
    const lawyerEdit = await import("~/routes/admin/lawyer-edit");
    const edit = await callRoute(
      lawyerEdit.loader,
      new Request(`${ORIGIN}/dashboard/lawyer/ada-stone`, { headers: { cookie: editorCookie } }),
      { slug: "ada-stone" },
    );
    expect((edit.data as { views: number }).views).toBe(2);
  });

  it("without a session: redirected; 'Don't count this browser' sets a first-party cookie that keeps beacons out", async () => {
    const statistics = await import("~/routes/admin/statistics");
    const { callRoute } = await import("../support/route-call");
    const anonymous = await callRoute(statistics.loader, new Request(`${ORIGIN}/dashboard/statistics`));
    expect(anonymous.status).toBe(302);
    const optOut = (await guarded(statistics.action, {
      request: new Request(`${ORIGIN}/dashboard/statistics?range=7d`, {
        method: "POST",
        body: new URLSearchParams({ count: "off" }),
        headers: { cookie: editorCookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      }),
      params: {},
      context: testContext("10.2.0.1"),
    })) as Response;
    expect(optOut.status).toBe(302);
    expect(optOut.headers.get("location")).toBe("/dashboard/statistics?range=7d");
    const set = optOut.headers.getSetCookie().find((c) => c.startsWith(STATS_OPT_OUT_COOKIE));
    expect(set).toMatch(/^firm\.stats_opt_out=1; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax$/);
    const cookie = set!.split(";")[0];
    const shown = await callRoute(
      statistics.loader,
      new Request(`${ORIGIN}/dashboard/statistics`, { headers: { cookie: `${editorCookie}; ${cookie}` } }),
    );
    expect((shown.data as { optedOut: boolean }).optedOut).toBe(true);
    // Signed out, with only that cookie: not counted.
    await view("/team", { headers: { cookie } });
    await flushStats();
    expect(await countStatsEvents()).toBe(0);
  });
});

/**
 * Visit statistics in Chromium, through the reference nginx in front of two
 * instances on one PostgreSQL (decision 0023):
 * - public pages set no cookie and use no storage, and send beacons to this
 *   site only (its one endpoint), answered 204 through the proxy;
 * - the count equals the visits, though most pages come from nginx's cache
 *   or the instances' page cache; every instance shows the same figures;
 * - a page is counted as what its route declares: a secret link under its
 *   pattern, a page that does not exist as "not found", never by its address;
 * - at shutdown (SIGTERM), every beacon an instance answered 204 is written,
 *   up to the last;
 * - crawlers, signed-in staff, an opted-out browser, Global Privacy Control
 *   and prefetched or prerendered pages that were never shown are not counted
 *   (a prerendered page counts once, when it is shown).
 *
 * Each test stands alone: it empties the counts first, opens its own browser
 * contexts (closed when it ends, even after a failure, so no page of one test
 * sends beacons into the next one's counts) and signs in with a session of
 * its own where it needs one. Only the cluster is shared (starting it takes a
 * minute): the one of tests/e2e/cluster-fixture.ts, which multi-instance
 * uses too; this file reads only the statistics it makes.
 * Needs PostgreSQL (TEST_DATABASE_URL or the machine's) and Debian's nginx.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll } from "vitest";
import { openDatabase, setDatabase, type Database } from "~/.server/db/client";
import { rollupStats } from "~/.server/db/stats";
import { STATS_BEACON_PATH } from "~/lib/stats";
import { signInCookie, type Cluster } from "../support/cluster";
import { CLUSTER_START_TIMEOUT, describe, expect, it, onTestFinished } from "./cluster-fixture";
import { chromium } from "playwright-core";
import { ADMIN_EMAIL, ADMIN_PASSWORD, CHROMIUM, CHROMIUM_FLAGS, newPage, signInContext } from "./support";

/** launchBrowser()'s arguments (support.ts) without --disable-background-networking: the browser may prefetch and prerender as a visitor's would. */
const BROWSER_ARGS = CHROMIUM_FLAGS.filter((flag) => flag !== "--disable-background-networking");

/** A desktop Chrome's user agent: headless Chromium says "HeadlessChrome", which isbot reads as a crawler. */
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let cluster: Cluster | undefined;
let database: Database | undefined;
let browser: Browser;
let skipReason = "";

it.beforeAll(async ({ nginxCluster }) => {
  ({ cluster, skipReason } = nginxCluster);
  if (!cluster) return;
  await cluster.heal();
  database = await openDatabase({ url: cluster.databaseUrl });
  setDatabase(database);
  // The browser's own user agent is a desktop Chrome's: a context's override (playwright) does not reach the
  // beacons a page sends while it is being left, which would then say "HeadlessChrome" (a crawler to isbot).
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...BROWSER_ARGS, `--user-agent=${CHROME}`] });
}, CLUSTER_START_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  setDatabase(undefined);
  await database?.close();
});

function site(skip: (note?: string) => void): Cluster {
  if (!cluster) skip(skipReason);
  return cluster!;
}

type Counted = { kind: string; path: string; n: number };

/** Raw events written so far, per kind and page (after the instances' one-second batches). */
async function counted(c: Cluster, settleMs = 2500): Promise<Counted[]> {
  await new Promise((r) => setTimeout(r, settleMs));
  return (await c.query<Counted>("select kind, path, count(*)::int as n from stats_events group by kind, path order by kind, path")).map(
    (r) => ({ ...r }),
  );
}

async function viewsOf(c: Cluster, path?: string): Promise<number> {
  const rows = await counted(c);
  return rows.filter((r) => r.kind === "view" && (path === undefined || r.path === path)).reduce((n, r) => n + r.n, 0);
}

async function clear(c: Cluster) {
  await new Promise((r) => setTimeout(r, 1500));
  await c.query("truncate stats_events, stats_daily, stats_daily_items, stats_hourly, stats_rollup_state");
}

/**
 * A browser page whose beacons (requests to the endpoint) are recorded: `sent` as they leave the browser, `beacons`
 * once answered (a beacon sent as a page is left may never report its answer to the browser's tools). Its context
 * is closed when the test ends (a test may close it sooner, to send the leave beacons).
 */
async function visitor(options: Parameters<Browser["newContext"]>[0] = {}): Promise<{
  context: BrowserContext;
  page: Page;
  beacons: { status: number; body: string }[];
  sent: string[];
  hosts: Set<string>;
}> {
  const { context, page } = await newPage(browser, options);
  onTestFinished(() => context.close());
  const beacons: { status: number; body: string }[] = [];
  const sent: string[] = [];
  const hosts = new Set<string>();
  context.on("request", (request) => {
    hosts.add(new URL(request.url()).host);
    if (new URL(request.url()).pathname === STATS_BEACON_PATH) sent.push(request.postData() ?? "");
  });
  context.on("requestfinished", (request) => {
    if (new URL(request.url()).pathname !== STATS_BEACON_PATH) return;
    void request.response().then((response) => beacons.push({ status: response?.status() ?? 0, body: request.postData() ?? "" }));
  });
  return { context, page, beacons, sent, hosts };
}

async function shown(page: Page, url: string) {
  await page.goto(url);
  await page.locator('html[data-enhanced="true"]').waitFor();
}

describe("visit statistics behind the reference nginx", () => {
  it("public pages set no cookie and use no storage; beacons go to this site only, answered 204 through the proxy", async ({ skip }) => {
    const c = site(skip);
    await clear(c);
    const { context, page, beacons, hosts } = await visitor();
    for (const path of ["/", "/team", "/insights", "/cyber", "/search?q=ransomware", "/contact"]) await shown(page, c.url + path);
    // A lawyer's profile, then a contact card and a telephone link used there.
    await shown(page, `${c.url}/team`);
    await page.locator('a[href^="/lawyer/"]').first().click();
    await page.waitForURL(/\/lawyer\//);
    await page.locator('html[data-enhanced="true"]').waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator('a[href$="/vcard"]').first().click()]);
    await download.cancel();
    // The telephone link: its click is counted; the dialler it would open is kept shut here.
    await page.evaluate(() => document.addEventListener("click", (event) => event.preventDefault(), true));
    await page.locator('a[href^="tel:"]').first().click();
    await shown(page, `${c.url}/privacy`);
    expect(await context.cookies()).toEqual([]);
    const storage = await page.evaluate(async () => ({
      cookie: document.cookie,
      local: localStorage.length,
      session: sessionStorage.length,
      databases: (await indexedDB.databases()).length,
    }));
    expect(storage).toEqual({ cookie: "", local: 0, session: 0, databases: 0 });
    await context.close();
    // Every request went to this site (Google's map loads only when the visitor presses "Show the map").
    expect([...hosts].filter((h) => h !== new URL(c.url).host)).toEqual([]);
    // Beacons sent while a page is hidden (time on page) leave no trace here; the database counts them below.
    expect(beacons.length).toBeGreaterThanOrEqual(9);
    expect(beacons.every((b) => b.status === 204)).toBe(true);
    const rows = await counted(c);
    const views = rows.filter((r) => r.kind === "view");
    // Nine pages shown, each counted once; each left (but the last, open when the browser closed) with its time.
    expect(views.reduce((n, r) => n + r.n, 0)).toBe(9);
    expect(rows.filter((r) => r.kind === "outbound").reduce((n, r) => n + r.n, 0)).toBe(2);
    expect(
      rows.filter((r) => r.kind === "leave").reduce((n, r) => n + r.n, 0),
      JSON.stringify(rows),
    ).toBeGreaterThanOrEqual(8);
    const [search] = await c.query<{ detail: string; amount: number }>(
      "select detail, amount from stats_events where path = '/search' and kind = 'view'",
    );
    expect(search.detail).toBe("ransomware");
    expect(search.amount).toBeGreaterThan(0);
  });

  it("the count equals the visits, though pages come from nginx's cache; every instance shows the same figures", async ({ skip }) => {
    const c = site(skip);
    await clear(c);
    const pages = ["/", "/team", "/insights", "/cyber", "/construction", "/insurance"];
    const visits = 3;
    const cacheStatus: string[] = [];
    for (let v = 0; v < visits; v++) {
      // Each a new browser (a new visitor would be a new address; here the same one, so one visitor a day).
      const { context, page } = await visitor();
      page.on("response", (response) => {
        if (response.request().resourceType() === "document") cacheStatus.push(response.headers()["x-proxy-cache"] ?? "");
      });
      for (const path of pages) {
        await shown(page, c.url + path);
        // Again at once: nginx keeps a page to the end of its second, so this one is usually its copy.
        await page.reload();
        await page.locator('html[data-enhanced="true"]').waitFor();
      }
      await context.close();
    }
    const views = visits * pages.length * 2;
    // Pages came from nginx's cache (HIT) as well as from the instances (and their page cache).
    expect(cacheStatus.filter((s) => s === "HIT").length).toBeGreaterThan(0);
    expect(await viewsOf(c)).toBe(views);
    expect(await viewsOf(c, "/team")).toBe(visits * 2);
    // nginx sent the beacons to the instances, as it sends the pages.
    const beaconUpstreams = fs
      .readFileSync(path.join(c.nginx.dir, "access.log"), "utf8")
      .split("\n")
      .filter((line) => line.endsWith(` ${STATS_BEACON_PATH}`))
      .map((line) => Number(line.split(" ")[2].split(":").pop()));
    expect(beaconUpstreams.length).toBeGreaterThanOrEqual(views);
    expect(beaconUpstreams.filter((port) => !c.instances.some((i) => i.port === port))).toEqual([]);
    // The rollup (the instances' job every minute; run here now) and the Statistics screen of each instance.
    await rollupStats(new Date(Date.now() + 5000));
    const figures: string[] = [];
    const cookie = await signInCookie(c.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const instance of c.instances) {
      const res = await fetch(`${instance.url}/dashboard/statistics?range=today`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const html = await res.text();
      figures.push(/data-figure="Page views">([^<]+)</.exec(html)?.[1] ?? "");
      // One address and one browser all day: one visitor (a new one tomorrow, with the new salt).
      expect(/data-figure="Visitors">([^<]+)</.exec(html)?.[1]).toBe("1");
    }
    expect(figures).toEqual([String(views), String(views)]);
  });

  it("crawlers, signed-in staff, an opted-out browser and Global Privacy Control are not counted", async ({ skip }) => {
    const c = site(skip);
    await clear(c);
    // A crawler with JavaScript (its beacon is refused by isbot on the server).
    const bot = await visitor({ userAgent: GOOGLEBOT });
    await shown(bot.page, `${c.url}/team`);
    await bot.context.close();
    // Global Privacy Control: the browser sends nothing at all.
    const gpc = await visitor({ extraHTTPHeaders: { "Sec-GPC": "1" } });
    await gpc.context.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true }));
    await shown(gpc.page, `${c.url}/team`);
    await shown(gpc.page, `${c.url}/cyber`);
    await gpc.context.close();
    expect(gpc.sent).toEqual([]);
    // Signed-in staff, then the same browser signed out but opted out from the Statistics screen.
    const staff = await visitor();
    await signInContext(staff.context, c.url);
    await shown(staff.page, `${c.url}/team`);
    await shown(staff.page, `${c.url}/insights`);
    await staff.page.goto(`${c.url}/dashboard/statistics`);
    await staff.page.locator('main[data-hydrated="true"]').waitFor();
    await staff.page.getByRole("button", { name: "Don't count this browser" }).click();
    await staff.page.getByText("This browser is no longer counted in the statistics.").waitFor();
    await staff.context.clearCookies({ name: /session_token/ });
    await shown(staff.page, `${c.url}/team`);
    // The browser did send its beacons (one for each page shown, at least): the server left them out.
    await expect.poll(() => staff.sent.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await staff.context.close();
    expect(await viewsOf(c)).toBe(0);
    // The same pages by a visitor are counted.
    const person = await visitor();
    await shown(person.page, `${c.url}/team`);
    await person.context.close();
    expect(await viewsOf(c)).toBe(1);
  });

  it("a page prefetched or prerendered ahead of the click is not counted until it is shown, then once", async ({ skip }) => {
    const c = site(skip);
    await clear(c);
    const { context, page } = await visitor();
    await shown(page, `${c.url}/insights`);
    // What Chromium did ahead of the click (its DevTools protocol reports each speculation of the page's rules).
    const speculated = new Set<string>();
    const cdp = await context.newCDPSession(page);
    cdp.on("Preload.prefetchStatusUpdated", (e) => {
      if (new URL(e.key.url).pathname === "/team") speculated.add(`prefetch ${e.status}`);
    });
    cdp.on("Preload.prerenderStatusUpdated", (e) => {
      if (new URL(e.key.url).pathname === "/team") speculated.add(`prerender ${e.status}`);
    });
    await cdp.send("Preload.enable");
    const link = page.locator('#main a[href="/team"], a[href="/team"]').first();
    // Hover: prefetch (no script runs); press: prerender (its script runs, waiting to be shown).
    await link.hover();
    await page.waitForTimeout(600);
    const box = (await link.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(1500);
    // The page was fetched (or rendered) ahead, so "not counted" below is about a page the browser already had.
    expect(
      [...speculated].filter((s) => s.endsWith(" Ready")),
      [...speculated].join(", "),
    ).not.toEqual([]);
    expect(await viewsOf(c, "/team")).toBe(0);
    await page.mouse.up();
    await page.waitForURL(`${c.url}/team`);
    await page.locator('html[data-enhanced="true"]').waitFor();
    const prerendered = await page.evaluate(
      () =>
        (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { activationStart?: number }).activationStart ?? 0,
    );
    expect(await viewsOf(c, "/team")).toBe(1);
    expect(await viewsOf(c, "/insights")).toBe(1);
    await context.close();
    // Reported so a run shows whether Chromium showed the prerendered page (activationStart > 0) or the prefetched one.
    console.info(
      `the /team page was ${prerendered > 0 ? "prerendered, then shown" : "prefetched, then loaded on click"} (${[...speculated].join(", ")})`,
    );
  });

  it("a secret link is counted under its pattern, a page that does not exist as not found, never by its address", async ({ skip }) => {
    const c = site(skip);
    await clear(c);
    const token = "Zm9yZ2VkLXRva2VuLXRoYXQtbXVzdC1uZXZlci1iZS1zdG9yZWQ";
    const { context, page } = await visitor();
    const [lawyer] = await c.query<{ slug: string }>("select slug from team where slug is not null order by id limit 1");
    for (const path of [
      `/subscribe/confirm/${token}`,
      `/subscribe/preferences/${token}`,
      "/no-such-page-at-all",
      "/lawyer/no-such-lawyer",
      `/lawyer/${lawyer.slug}`,
    ]) {
      await shown(page, c.url + path);
    }
    await context.close();
    const rows = await counted(c);
    const views = Object.fromEntries(rows.filter((r) => r.kind === "view").map((r) => [r.path, r.n]));
    // Two made-up pages, one visitor: "not found" once a day.
    expect(views).toEqual({
      "/subscribe/confirm/:token": 1,
      "/subscribe/preferences/:token": 1,
      "(not found)": 1,
      [`/lawyer/${lawyer.slug}`]: 1,
    });
    const everything = JSON.stringify(await c.query("select * from stats_events"));
    expect(everything).not.toContain(token);
    expect(everything).not.toContain("no-such");
  });

  it("at shutdown (SIGTERM), every beacon an instance answered 204 is written, up to the last", async ({ skip }) => {
    const c = site(skip);
    await clear(c);
    const instance = c.instances[0];
    let answered = 0;
    let sent = 0;
    // Four senders, one beacon after another, until the instance stops listening (it keeps taking requests while it drains).
    // Each beacon from a browser of its own (a visitor is counted at most STATS_MAX_VIEWS_PER_MINUTE times a minute).
    const senders = Array.from({ length: 4 }, async () => {
      for (;;) {
        const n = sent++;
        try {
          const response = await fetch(`${instance.url}/stats/beacon`, {
            method: "POST",
            body: JSON.stringify({ k: "v", p: "/team", r: "" }),
            headers: { origin: c.url, "content-type": "text/plain;charset=UTF-8", "user-agent": `${CHROME} Sender/${n}` },
          });
          if (response.status === 204) answered++;
        } catch {
          return; // refused or closed: the instance has stopped listening
        }
      }
    });
    // The stop comes once more than 100 are answered (not after a fixed time: a busy machine answers fewer a second).
    const deadline = Date.now() + 30_000;
    while (answered <= 100 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const exited = instance.stop();
    await Promise.all(senders);
    expect(await exited).toBe(0);
    const [{ n }] = await c.query<{ n: number }>("select count(*)::int as n from stats_events where kind = 'view' and path = '/team'");
    expect(answered).toBeGreaterThan(100);
    expect(n).toBe(answered);
    await c.restart(0);
  });
});

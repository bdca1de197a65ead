/**
 * Visit statistics: the ingestion, from a beacon's body to the rows written
 * (decision 0023). The endpoint (stats-beacon-http.ts) hands each body here;
 * nothing here waits for the database per beacon.
 *
 * 1. `ingestBeaconText` checks the body with Zod (400 when malformed) and
 *    decides what page it counts as, from the route its path goes to and
 *    what that route declares in its handle (`statistics`, lib/route-handle.ts):
 *    its path, its pattern (a secret in the path), "not found", or not at
 *    all. What counts is buffered in memory with the few facts of its request
 *    the count needs.
 * 2. Every second (or every BATCH_SIZE beacons) the buffer is classified in
 *    one loop and written in one statement: dropped when it must not be
 *    counted (a crawler, Global Privacy Control, an opted-out browser, a
 *    signed-in staff member: one query a batch), over the visitor's limit
 *    (STATS_MAX_VIEWS_PER_MINUTE of each kind a minute), or a second "not
 *    found" of the visitor that day; a path with a parameter that is not a
 *    page the site publishes becomes "not found"; the visitor hashed, the
 *    referrer, campaign and search term worked out.
 *
 * A visitor is sha256(day's salt, site, IP address, user agent), cut to 48
 * bits. The address and user agent wait in memory until their batch is
 * classified (about a second) and are never written; the day's salts
 * (db/stats.ts) are deleted two days after their day. Staff can keep their
 * own browser out for good (STATS_OPT_OUT_COOKIE, set from the Statistics
 * screen).
 */
import { hash } from "node:crypto";
import { isbot } from "isbot";
import { z } from "zod";
import { MAX_QUERY_LENGTH } from "~/lib/search";
import {
  addDays,
  browserFamily,
  campaignKey,
  deviceClass,
  firmDay,
  MAX_TIME_ON_PAGE_MS,
  NOT_FOUND_PAGE,
  outboundTarget,
  referrerKey,
  startOfFirmDay,
  STATS_OPT_OUT_COOKIE,
  type ConversionKind,
} from "~/lib/stats";
import { publishedPagePaths } from "../db/seo";
import { ensureSalts, insertStatsEvents, liveSessionTokens, type StatsEventRow } from "../db/stats";
import { getEnv } from "../env";
import { log } from "../log";
import { requestInfo, type RequestContext } from "../http/request-context";
import { type TableRoute } from "../http/route-table";
import { isSecretParam, patternParams } from "~/lib/route-patterns";

/** A beacon is small: anything bigger is refused unread. */
export const MAX_BEACON_BYTES = 4096;
/** Written every this often… */
export const FLUSH_INTERVAL_MS = 1000;
/** …or as soon as this many events wait. */
export const BATCH_SIZE = 2000;
/** Events kept while the database does not answer; more are dropped (and logged). */
export const MAX_BUFFERED = 200_000;
/** A staff session token's check is trusted this long. */
const SESSION_CHECK_MS = 60_000;
/** How many received beacons are classified before the loop lets other work in (a few milliseconds). */
const CLASSIFY_SLICE = 250;

/**
 * What the beacon sends, as JSON or URL-encoded (short names keep the browser's code small):
 * k: v = a page shown, l = the page left (d: ms visible), o = an outbound link used (h: its target);
 * p: the page's path and query; r: document.referrer (views); n: results on a /search page.
 */
export const beaconSchema = z.object({
  k: z.enum(["v", "l", "o"]),
  p: z
    .string()
    .max(2000)
    .regex(/^\/(?!\/)/, "a path on this site"),
  r: z.string().max(2000).optional(),
  d: z.coerce.number().int().min(0).max(1e9).optional(),
  h: z.string().max(2000).optional(),
  n: z.coerce.number().int().min(0).max(1e6).optional(),
});

export type Beacon = z.infer<typeof beaconSchema>;

/**
 * What the ingestion reads of a request: three headers, the host it was sent
 * to, the client's address. Kept with a beacon until its batch is classified
 * (about a second, in memory only; never written).
 */
export type BeaconSource = {
  userAgent: string | null;
  gpc: string | null;
  cookie: string | null;
  /** The host the request was addressed to (its Host header), without the port. */
  hostname: string;
  clientIp: string;
};

/** What a page is counted as: its key, and whether that key (a path with a parameter) counts only for a page the site publishes. */
export type PageKey = { key: string; published: boolean };

/** A beacon as received: checked, with what its request said and what page it counts as; classified with its batch. */
type Received = { beacon: Beacon; url: URL; page: PageKey; request: BeaconSource; at: Date; target: string | null };

/** An event ready for the writer, but for the staff check (`token`) and, rarely, the hash (`raw`). */
type Pending = Omit<StatsEventRow, "visitor"> & {
  visitor: number | null;
  /** Only until the day's salt is in memory (a start-up or a day change while the database did not answer). */
  raw?: { ip: string; ua: string };
  /** A staff session token the request carried (not checked yet: the writer checks the batch's in one query). */
  token: string | null;
};

/**
 * What a beacon from a page of `route` counts as, from the route's handle:
 * null when the route does not declare itself counted. A route with a
 * parameter named like a secret is counted under its pattern, whatever it
 * declares (tests/integration/route-secrets.test.ts walks every route).
 */
export function pageKeyOf(route: TableRoute | undefined, pathname: string): PageKey | null {
  const counted = route?.handle?.statistics;
  if (!route || !counted) return null;
  if (counted === "not-found") return { key: NOT_FOUND_PAGE, published: false };
  const params = patternParams(route.pattern);
  if (counted === "pattern" || params.length === 0 || params.some(isSecretParam)) return { key: route.pattern, published: false };
  return { key: pathname.slice(0, 300), published: true };
}

/** A beacon's body: JSON (what the enhancement module sends), or the same fields URL-encoded. */
function parseBody(text: string): unknown {
  return text.trimStart().startsWith("{") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
}

/**
 * One beacon's body: 400 when malformed; otherwise 204, and buffered when its
 * page counts (`routeOf`: the route a path goes to). Synchronous: never waits
 * for the database.
 */
export function ingestBeaconText(
  text: string,
  source: BeaconSource,
  routeOf: (pathname: string) => TableRoute | undefined,
  now = new Date(),
): { status: 204 | 400 } {
  let json: unknown;
  try {
    json = parseBody(text);
  } catch {
    return { status: 400 };
  }
  const parsed = beaconSchema.safeParse(json);
  if (!parsed.success) return { status: 400 };
  const beacon = parsed.data;
  if (beacon.k === "l" && beacon.d === undefined) return { status: 400 };
  const target = beacon.k === "o" ? outboundTarget(clean(beacon.h ?? "")) : null;
  if (beacon.k === "o" && !target) return { status: 400 };
  let url: URL;
  try {
    url = new URL(beacon.p, "http://x");
  } catch {
    return { status: 400 };
  }
  const page = pageKeyOf(routeOf(url.pathname), url.pathname);
  if (!page) state.counters.notCounted++;
  else enqueue({ beacon, url, page, request: source, at: now, target });
  return { status: 204 };
}

/** A fetch Request (a React Router action) as a BeaconSource. */
function sourceOf(request: Request, context: RequestContext): BeaconSource {
  return {
    userAgent: request.headers.get("user-agent"),
    gpc: request.headers.get("sec-gpc"),
    cookie: request.headers.get("cookie"),
    hostname: new URL(request.url).hostname,
    clientIp: requestInfo(context).clientIp,
  };
}

export const OPT_OUT = new RegExp(`(?:^|;\\s*)${STATS_OPT_OUT_COOKIE.replace(".", "\\.")}=1(?:;|$)`);

/** Whether a staff member chose not to count this browser (the Statistics screen). */
export function browserOptedOut(request: Request): boolean {
  return OPT_OUT.test(request.headers.get("cookie") ?? "");
}

/**
 * The Set-Cookie that keeps this browser out of the statistics (or counts it
 * again): first-party, HttpOnly, 400 days (browsers' limit), set only by the
 * Statistics screen at a staff member's request; the public pages set none.
 */
export function statsOptOutCookie(optOut: boolean): string {
  const secure = getEnv().publicUrl.startsWith("https://") ? "; Secure" : "";
  return `${STATS_OPT_OUT_COOKIE}=${optOut ? "1" : ""}; Path=/; Max-Age=${optOut ? 34_560_000 : 0}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * Counts a conversion (an enquiry sent; a subscription confirmed) for the
 * visitor making `request`: the rollup credits it to the page their visit
 * began on that day (none: "unknown"); its own address is not kept. Not
 * counted for crawlers, Global Privacy Control, staff or opted-out browsers,
 * like a view. Call it once the thing has happened; it never fails the caller.
 */
export function recordConversion(kind: ConversionKind, request: Request, context: RequestContext, now = new Date()): boolean {
  try {
    const event = baseEvent(sourceOf(request, context), "conversion", "", now, state.salts);
    if (!event) return false;
    event.detail = kind;
    enqueue(event);
    return true;
  } catch (error) {
    log("warn", "conversion not counted", { error: (error as Error).message });
    return false;
  }
}

// ---------------------------------------------------------------------------
// The buffer and the writer.

const state = {
  /** Beacons as received, and events (conversions, a batch kept after a failed write) ready to write. */
  buffer: [] as (Received | Pending)[],
  timer: undefined as NodeJS.Timeout | undefined,
  flushing: null as Promise<void> | null,
  salts: new Map<string, string>(),
  sessions: new Map<string, { live: boolean; until: number }>(),
  /** Events counted this minute, per visitor and kind (STATS_MAX_VIEWS_PER_MINUTE). */
  perMinute: { minute: 0, counts: new Map<string, number>() },
  /** Visitors whose "not found" view is already counted today. */
  notFound: { day: "", visitors: new Set<string>() },
  counters: { accepted: 0, written: 0, batches: 0, staff: 0, dropped: 0, failedFlushes: 0, notCounted: 0, limited: 0 },
  lastDropLog: 0,
};

function enqueue(item: Received | Pending) {
  if (state.buffer.length >= MAX_BUFFERED) {
    state.counters.dropped++;
    if (Date.now() - state.lastDropLog > 60_000) {
      state.lastDropLog = Date.now();
      log("error", "visit statistics: events dropped, the database has not answered for a while", { dropped: state.counters.dropped });
    }
    return;
  }
  state.counters.accepted++;
  state.buffer.push(item);
  // A full batch is written at once, unless a write is under way: then it waits for the timer, so that
  // a steady stream is written in one statement a second, not in a chain of small ones.
  if (state.buffer.length >= BATCH_SIZE && !state.flushing) void flushStats();
  else state.timer ??= setTimeout(onTimer, FLUSH_INTERVAL_MS).unref();
}

function onTimer() {
  state.timer = undefined;
  void flushStats();
}

// ---------------------------------------------------------------------------
// Classification, a batch at a time.

/** The day's salts by Toronto day (today's and tomorrow's), as the writer keeps them. */
type Salts = ReadonlyMap<string, string>;

let site = { publicUrl: "", host: "", hostname: "" };
function siteHost(): typeof site {
  const publicUrl = getEnv().publicUrl;
  if (site.publicUrl !== publicUrl) {
    const url = new URL(publicUrl);
    site = { publicUrl, host: url.host, hostname: url.hostname };
  }
  return site;
}

/** The firm's day of `at` (Toronto), from the day last asked for while `at` falls in it. */
let knownDay = { day: "", from: 0, until: 0 };
function dayOf(at: Date): string {
  const time = at.getTime();
  if (time >= knownDay.from && time < knownDay.until) return knownDay.day;
  const day = firmDay(at);
  knownDay = { day, from: startOfFirmDay(day).getTime(), until: startOfFirmDay(addDays(day, 1)).getTime() };
  return day;
}

type UserAgentFacts = { crawler: boolean; device: StatsEventRow["device"]; browser: string };
/** Facts by User-Agent: a site's visitors use a few hundred; the map is emptied when it holds more. */
const userAgents = new Map<string, UserAgentFacts>();
const MAX_USER_AGENTS = 1000;
function factsOf(ua: string): UserAgentFacts {
  let facts = userAgents.get(ua);
  if (!facts) {
    if (userAgents.size >= MAX_USER_AGENTS) userAgents.clear();
    facts = { crawler: !ua || isbot(ua), device: deviceClass(ua), browser: browserFamily(ua) };
    userAgents.set(ua, facts);
  }
  return facts;
}

function hashVisitor(salt: string, ip: string, ua: string): number {
  return hash("sha256", `${salt}\n${siteHost().host}\n${ip}\n${ua}`, "buffer").readUIntBE(0, 6);
}

/**
 * The staff session token a request carries (not yet checked), or null: the
 * session cookie better-auth sets with auth.ts's cookie prefix "firm"
 * (`__Secure-` in front over https), its value "token.signature".
 */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?firm\.session_token=([^;]*)/;

function sessionTokenOf(request: BeaconSource): string | null {
  const cookie = SESSION_COOKIE.exec(request.cookie ?? "")?.[1];
  if (!cookie) return null;
  let value = cookie;
  try {
    value = decodeURIComponent(cookie);
  } catch {
    /* kept as sent */
  }
  return value.split(".")[0] || null;
}

/** The event's fields common to every kind, or null when the request is not counted (a crawler, GPC, an opted-out browser). */
function baseEvent(request: BeaconSource, kind: StatsEventRow["kind"], path: string, at: Date, salts: Salts): Pending | null {
  const ua = (request.userAgent ?? "").slice(0, 512);
  if (factsOf(ua).crawler || request.gpc === "1" || OPT_OUT.test(request.cookie ?? "")) return null;
  const ip = request.clientIp;
  const salt = salts.get(dayOf(at));
  const { device, browser } = factsOf(ua);
  return {
    at,
    kind,
    visitor: salt ? hashVisitor(salt, ip, ua) : null,
    ...(salt ? {} : { raw: { ip, ua } }),
    token: sessionTokenOf(request),
    path,
    entry: false,
    referrer: null,
    campaign: null,
    device,
    browser,
    detail: null,
    amount: null,
  };
}

/** Whether the visitor's events of this kind this minute are within STATS_MAX_VIEWS_PER_MINUTE (counts this one). */
function withinLimit(event: Pending): boolean {
  const minute = Math.floor(event.at.getTime() / 60_000);
  const perMinute = state.perMinute;
  if (minute > perMinute.minute) {
    perMinute.minute = minute;
    perMinute.counts.clear();
  }
  const key = `${event.kind}\n${event.visitor ?? `${event.raw?.ip}\n${event.raw?.ua}`}`;
  const count = (perMinute.counts.get(key) ?? 0) + 1;
  perMinute.counts.set(key, count);
  return count <= getEnv().STATS_MAX_VIEWS_PER_MINUTE;
}

/** Whether this is the visitor's first "not found" view today (a visitor's 404s count once a day). */
function firstNotFoundToday(event: Pending): boolean {
  const day = dayOf(event.at);
  if (state.notFound.day !== day || state.notFound.visitors.size > 100_000) state.notFound = { day, visitors: new Set() };
  const key = String(event.visitor ?? `${event.raw?.ip}\n${event.raw?.ua}`);
  if (state.notFound.visitors.has(key)) return false;
  state.notFound.visitors.add(key);
  return true;
}

/** A received beacon as an event, or null when it is not counted. `published`: the paths of the pages the site publishes. */
function classify({ beacon, url, page, request, at, target }: Received, salts: Salts, published: ReadonlySet<string>): Pending | null {
  const path = page.published && !published.has(page.key) ? NOT_FOUND_PAGE : page.key;
  const event = baseEvent(request, beacon.k === "v" ? "view" : beacon.k === "l" ? "leave" : "outbound", path, at, salts);
  if (!event) return null;
  if (!withinLimit(event) || (path === NOT_FOUND_PAGE && beacon.k === "v" && !firstNotFoundToday(event))) {
    state.counters.limited++;
    return null;
  }
  if (beacon.k === "v") {
    // The first page of a visit: arrived from another site, or from nowhere (typed, a bookmark, an app).
    const hosts = [request.hostname, siteHost().hostname];
    event.entry = !hosts.includes(hostOf(beacon.r ?? ""));
    if (event.entry) {
      event.referrer = referrerKey(beacon.r, hosts);
      event.campaign = campaignKey(url.searchParams);
    }
    // A search (its first page, all kinds): the term, and whether it found anything.
    const q = clean(url.searchParams.get("q") ?? "")
      .toLowerCase()
      .slice(0, MAX_QUERY_LENGTH);
    if (path === "/search" && q && beacon.n !== undefined && !url.searchParams.has("kind") && !url.searchParams.has("page")) {
      event.detail = q;
      event.amount = beacon.n;
    }
  } else if (beacon.k === "l") {
    event.amount = Math.min(beacon.d ?? 0, MAX_TIME_ON_PAGE_MS);
  } else {
    event.detail = target;
  }
  return event;
}

/** Text as it may be stored: no control characters (PostgreSQL text holds no NUL), spaces collapsed. */
function clean(text: string): string {
  return text.replace(/[\p{Cc}\s]+/gu, " ").trim();
}

function hostOf(address: string): string {
  if (!address) return "";
  try {
    return new URL(address).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** A batch's received beacons as events (those not counted left out; events already made kept), a slice at a time. */
async function classifyAll(batch: (Received | Pending)[], salts: Salts, published: ReadonlySet<string>): Promise<Pending[]> {
  const events: Pending[] = [];
  for (let i = 0; i < batch.length; i++) {
    if (i > 0 && i % CLASSIFY_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const item = batch[i];
    let event: Pending | null = null;
    try {
      event = "beacon" in item ? classify(item, salts, published) : item;
    } catch (error) {
      // One beacon Zod let through but the classification could not read is left out, not its batch.
      log("warn", "visit statistics: a beacon could not be classified", { error: (error as Error).message });
    }
    if (event) events.push(event);
  }
  return events;
}

/** Today's and tomorrow's salts in memory (one query when one is missing: at start-up, once a day). */
async function ensureSaltsInMemory(now = new Date()): Promise<void> {
  const today = dayOf(now);
  const wanted = [today, addDays(today, 1)].filter((d) => !state.salts.has(d));
  if (wanted.length) for (const [day, salt] of await ensureSalts(wanted)) state.salts.set(day, salt);
  const oldest = addDays(today, -1);
  for (const day of state.salts.keys()) if (day < oldest) state.salts.delete(day);
}

/** Drops the batch's staff events (one query for the tokens not checked in the last minute) and hashes any held back. */
async function prepare(batch: Pending[]): Promise<StatsEventRow[]> {
  const now = Date.now();
  const unknown = [...new Set(batch.flatMap((e) => (e.token && !((state.sessions.get(e.token)?.until ?? 0) > now) ? [e.token] : [])))];
  if (unknown.length) {
    const live = await liveSessionTokens(unknown);
    if (state.sessions.size > 10_000) state.sessions.clear();
    for (const token of unknown) state.sessions.set(token, { live: live.has(token), until: now + SESSION_CHECK_MS });
  }
  const held = batch.filter((e) => e.raw);
  const heldSalts = held.length ? await ensureSalts([...new Set(held.map((e) => firmDay(e.at)))]) : new Map<string, string>();
  const rows: StatsEventRow[] = [];
  for (const { token, raw, ...event } of batch) {
    if (token && state.sessions.get(token)?.live) {
      state.counters.staff++;
      continue;
    }
    let visitor = event.visitor;
    if (visitor === null && raw) {
      const salt = heldSalts.get(firmDay(event.at));
      if (!salt) continue;
      visitor = hashVisitor(salt, raw.ip, raw.ua);
    }
    if (visitor !== null) rows.push({ ...event, visitor });
  }
  return rows;
}

const NO_PAGES: ReadonlySet<string> = new Set();

/** Writes what is buffered, in batches; a failure keeps the events for the next try. Events that arrive meanwhile wait for the next flush. */
export function flushStats(): Promise<void> {
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  const previous = state.flushing ?? Promise.resolve();
  const run = previous.then(async () => {
    // What is buffered now, in batches of BATCH_SIZE; what arrives while they are written waits for the next flush
    // (draining until the buffer was empty wrote many small statements under a steady stream).
    let left = state.buffer.length;
    while (left > 0 && state.buffer.length) {
      const taken = state.buffer.splice(0, Math.min(BATCH_SIZE, left));
      left -= taken.length;
      let kept: (Received | Pending)[] = taken;
      try {
        const published = taken.some((item) => "page" in item && item.page.published) ? await publishedPagePaths() : NO_PAGES;
        // Classified before the write, so that only hashed events wait for a retry when it fails.
        const batch = await classifyAll(taken, state.salts, published);
        kept = batch;
        const rows = await prepare(batch);
        await insertStatsEvents(rows);
        state.counters.written += rows.length;
        state.counters.batches++;
      } catch (error) {
        state.counters.failedFlushes++;
        state.buffer.unshift(...kept.slice(0, Math.max(0, MAX_BUFFERED - state.buffer.length)));
        log("warn", "visit statistics not written yet; tried again shortly", {
          events: state.buffer.length,
          error: (error as Error).message,
        });
        state.timer ??= setTimeout(onTimer, FLUSH_INTERVAL_MS * 5).unref();
        return;
      }
    }
    // Tomorrow's salt is fetched ahead, so the day changes without waiting.
    await ensureSaltsInMemory().catch(() => undefined);
  });
  state.flushing = run.finally(() => {
    if (state.flushing === tracked) state.flushing = null;
  });
  const tracked = state.flushing;
  return run;
}

/** At start-up: the day's salts in memory before the first beacon (a failure is retried by the first flush). */
export async function startStatsIngest(): Promise<void> {
  try {
    await ensureSaltsInMemory();
  } catch (error) {
    log("warn", "visit statistics: the day's salt could not be read yet", { error: (error as Error).message });
  }
}

/** At shutdown, before the database closes: everything buffered is written. */
export async function stopStatsIngest(): Promise<void> {
  await flushStats().catch(() => undefined);
  const lost = state.buffer.length;
  if (lost) log("error", "visit statistics: events not written at shutdown", { events: lost });
  state.buffer = [];
  state.salts.clear();
  state.sessions.clear();
}

/** Counts since start (the benchmark and tests read them). */
export function statsIngestCounters() {
  return { ...state.counters, buffered: state.buffer.length };
}

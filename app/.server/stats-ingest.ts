/**
 * Visit statistics: the ingestion (decision 0023). The public pages' beacon
 * (app/enhance/stats.ts) posts to POST /stats/beacon (app/routes/stats/beacon.ts),
 * which calls `ingestBeacon`: the body is checked with Zod and goes into a
 * buffer in memory with the few facts of its request the count needs. The
 * buffer is written in batches, every second or every BATCH_SIZE events, and
 * once more when the server stops: no database round trip per beacon. Just
 * before a batch is written, its beacons are classified in one loop: dropped
 * when they must not be counted (a crawler, Global Privacy Control, a staff
 * member's session or opted-out browser), the visitor hashed with the day's
 * salt, the referrer, campaign and search term worked out. Done a beacon at a
 * time between the pages, that work cost several times more (issue 32).
 *
 * A visitor is sha256(day's salt, site, IP address, user agent), cut to 48
 * bits. The address and user agent wait in memory only until their batch is
 * classified (about a second), and are never written; a batch kept for a
 * retry after a failed write holds hashed events (but for any whose day's
 * salt could not be read yet). The salt is
 * deleted two days after its day (db/stats.ts), so a visitor cannot be
 * recognised the next day, nor the hash turned back into an address.
 *
 * Staff: a request with a session cookie is set aside and, in the flush,
 * checked against the live sessions in one query for the whole batch (the
 * answer is kept a minute per token), so signed-in staff are not counted
 * without a database round trip per beacon. Staff can also keep their own
 * browser out for good (STATS_OPT_OUT_COOKIE, set from the Statistics screen).
 */
import { hash } from "node:crypto";
import { isbot } from "isbot";
import { z } from "zod";
import {
  browserFamily,
  campaignKey,
  deviceClass,
  firmDay,
  addDays,
  startOfFirmDay,
  MAX_TIME_ON_PAGE_MS,
  outboundTarget,
  referrerKey,
  STATS_OPT_OUT_COOKIE,
  type ConversionKind,
} from "~/lib/stats";
import { MAX_QUERY_LENGTH } from "~/lib/search";
import { ensureSalts, insertStatsEvents, liveSessionTokens, type StatsEventRow } from "./db/stats";
import { getEnv } from "./env";
import { log } from "./log";
import { requestInfo, type RequestContext } from "./request-context";

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

/** Why a request is not counted; null when it is. */
export type Exclusion = "crawler" | "privacy-control" | "opted-out";

const OPT_OUT = new RegExp(`(?:^|;\\s*)${STATS_OPT_OUT_COOKIE.replace(".", "\\.")}=1(?:;|$)`);

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

/** A fetch Request (a React Router action) as a BeaconSource. */
export function sourceOf(request: Request, context: RequestContext): BeaconSource {
  return {
    userAgent: request.headers.get("user-agent"),
    gpc: request.headers.get("sec-gpc"),
    cookie: request.headers.get("cookie"),
    hostname: new URL(request.url).hostname,
    clientIp: requestInfo(context).clientIp,
  };
}

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

/** `ua`: the source's user agent as the count reads it (its first 512 characters). */
function exclusionOf(request: BeaconSource, ua: string): Exclusion | null {
  if (factsOf(ua).crawler) return "crawler";
  if (request.gpc === "1") return "privacy-control";
  if (OPT_OUT.test(request.cookie ?? "")) return "opted-out";
  return null;
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

type Pending = Omit<StatsEventRow, "visitor"> & {
  visitor: number | null;
  /** Only until the day's salt is in memory (a start-up or a day change while the database did not answer). */
  raw?: { ip: string; ua: string };
  token: string | null;
};

const state = {
  /** Beacons as received, and events (conversions; a batch kept after a failed write) ready to write. */
  buffer: [] as (Received | Pending)[],
  timer: undefined as NodeJS.Timeout | undefined,
  flushing: null as Promise<void> | null,
  salts: new Map<string, string>(),
  sessions: new Map<string, { live: boolean; until: number }>(),
  counters: { accepted: 0, written: 0, batches: 0, staff: 0, dropped: 0, failedFlushes: 0 },
  lastDropLog: 0,
};

/*
 * What every beacon would otherwise work out again (2,000 a second share the
 * server's one thread with the pages, issue 32): the site's host, the firm's
 * day, and what a User-Agent says. Each is kept and checked cheaply.
 */
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
  // One-shot hashing: a third cheaper than createHash().update().digest() (2,000 beacons a second).
  return hash("sha256", `${salt}\n${siteHost().host}\n${ip}\n${ua}`, "buffer").readUIntBE(0, 6);
}

const publicHost = () => siteHost().hostname;

function ownHosts(request: BeaconSource): string[] {
  return [request.hostname, publicHost()];
}

/** The event's fields common to every kind, or null when the request is not counted. */
function baseEvent(request: BeaconSource, kind: StatsEventRow["kind"], path: string, at: Date): Pending | null {
  const ua = (request.userAgent ?? "").slice(0, 512);
  if (exclusionOf(request, ua)) return null;
  const ip = request.clientIp;
  const salt = state.salts.get(dayOf(at));
  const { device, browser } = factsOf(ua);
  return {
    at,
    kind,
    visitor: salt ? hashVisitor(salt, ip, ua) : null,
    ...(salt ? {} : { raw: { ip, ua } }),
    token: sessionTokenOf(request),
    path: path.slice(0, 300),
    entry: false,
    referrer: null,
    campaign: null,
    device,
    browser,
    detail: null,
    amount: null,
  };
}

/** 204 once checked and buffered (counted or not: that is decided with its batch), 400 malformed, 413 too large. */
export type IngestResult = { status: 204 | 400 | 413 };

/** A request's body as text, or null when it is over `max` bytes (declared, or once that much has been read). */
async function readCapped(request: Request, max: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > max) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** One beacon (a React Router action's request): read, checked, then counted unless it must not be. */
export async function ingestBeacon(request: Request, context: RequestContext, now = new Date()): Promise<IngestResult> {
  let text: string | null;
  try {
    text = await readCapped(request, MAX_BEACON_BYTES);
  } catch {
    return { status: 400 };
  }
  if (text === null) return { status: 413 };
  return ingestBeaconText(text, sourceOf(request, context), now);
}

/** A beacon's body: JSON (what the enhancement module sends), or the same fields URL-encoded. */
function parseBody(text: string): unknown {
  return text.trimStart().startsWith("{") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
}

/** A beacon as received: checked, with what its request said; classified with its batch. */
type Received = { beacon: Beacon; request: BeaconSource; at: Date; target: string | null };

/**
 * One beacon's body: checked with Zod and buffered as received (400 when
 * malformed). Synchronous: never waits for the database. Whether it counts,
 * the visitor's hash, the referrer and the rest are worked out with its batch
 * (`classify`), a second's beacons in one loop rather than one at a time
 * between the pages. Used by the route and by the production server's fast
 * path (stats-beacon-http.ts).
 */
export function ingestBeaconText(text: string, source: BeaconSource, now = new Date()): IngestResult {
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
  enqueue({ beacon, request: source, at: now, target });
  return { status: 204 };
}

/** A received beacon as an event, or null when it is not counted. */
function classify({ beacon, request, at, target }: Received): Pending | null {
  const url = new URL(beacon.p, "http://x");
  // Previews (a shared link's token is in its path) are not the public site.
  if (url.pathname.startsWith("/preview/")) return null;
  const event = baseEvent(request, beacon.k === "v" ? "view" : beacon.k === "l" ? "leave" : "outbound", url.pathname, at);
  if (!event) return null;
  if (beacon.k === "v") {
    // The first page of a visit: arrived from another site, or from nowhere (typed, a bookmark, an app).
    const hosts = ownHosts(request);
    event.entry = !hosts.includes(hostOf(beacon.r ?? ""));
    if (event.entry) {
      event.referrer = referrerKey(beacon.r, hosts);
      event.campaign = campaignKey(url.searchParams);
    }
    // A search (its first page, all kinds): the term, and whether it found anything.
    const q = clean(url.searchParams.get("q") ?? "")
      .toLowerCase()
      .slice(0, MAX_QUERY_LENGTH);
    if (url.pathname === "/search" && q && beacon.n !== undefined && !url.searchParams.has("kind") && !url.searchParams.has("page")) {
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

/**
 * Counts a conversion (an enquiry sent; a subscription confirmed, issue 31)
 * for the visitor making `request`: the rollup credits it to the page their
 * visit began on that day (none: counted under "unknown"). Not counted for
 * crawlers, Global Privacy Control, staff or opted-out browsers, like a view.
 * Call it once the thing has happened; it never fails the caller.
 */
export function recordConversion(kind: ConversionKind, request: Request, context: RequestContext, now = new Date()): boolean {
  try {
    const event = baseEvent(sourceOf(request, context), "conversion", new URL(request.url).pathname, now);
    if (!event) return false;
    event.detail = kind;
    enqueue(event);
    return true;
  } catch (error) {
    log("warn", "conversion not counted", { error: (error as Error).message });
    return false;
  }
}

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
  // a steady stream is written in one statement a second, not in a chain of small ones (issue 32).
  if (state.buffer.length >= BATCH_SIZE && !state.flushing) void flushStats();
  else state.timer ??= setTimeout(onTimer, FLUSH_INTERVAL_MS).unref();
}

function onTimer() {
  state.timer = undefined;
  void flushStats();
}

/** Today's and tomorrow's salts in memory (one query when one is missing: at start-up, once a day). */
async function ensureSaltsInMemory(now = new Date()): Promise<void> {
  const today = dayOf(now);
  const wanted = [today, addDays(today, 1)].filter((d) => !state.salts.has(d));
  if (wanted.length) for (const [day, salt] of await ensureSalts(wanted)) state.salts.set(day, salt);
  const oldest = addDays(today, -1);
  for (const day of state.salts.keys()) if (day < oldest) state.salts.delete(day);
}

/** How many received beacons are classified before the loop lets the pages in (a few milliseconds). */
const CLASSIFY_SLICE = 250;

/** The batch's received beacons as events (those not counted left out), a slice at a time. */
async function classifyAll(batch: (Received | Pending)[]): Promise<Pending[]> {
  const events: Pending[] = [];
  for (let i = 0; i < batch.length; i++) {
    if (i > 0 && i % CLASSIFY_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const item = batch[i];
    let event: Pending | null = null;
    try {
      event = "beacon" in item ? classify(item) : item;
    } catch (error) {
      // One beacon Zod let through but the classification could not read is left out, not its batch.
      log("warn", "visit statistics: a beacon could not be classified", { error: (error as Error).message });
    }
    if (event) events.push(event);
  }
  return events;
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

/** Writes what is buffered, in batches; a failure keeps the events for the next try. Events that arrive meanwhile wait for the next flush. */
export function flushStats(): Promise<void> {
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  const previous = state.flushing ?? Promise.resolve();
  const run = previous.then(async () => {
    // What is buffered now, in batches of BATCH_SIZE. What arrives while they are written waits for the
    // next flush: draining until the buffer was empty wrote ~100 statements of ~20 events a second
    // under a steady 2,000 beacons a second, each a round trip and a commit (issue 32).
    let left = state.buffer.length;
    while (left > 0 && state.buffer.length) {
      const taken = state.buffer.splice(0, Math.min(BATCH_SIZE, left));
      left -= taken.length;
      // Classified before the write, so that only hashed events wait for a retry when it fails.
      const batch = await classifyAll(taken);
      try {
        const rows = await prepare(batch);
        await insertStatsEvents(rows);
        state.counters.written += rows.length;
        state.counters.batches++;
      } catch (error) {
        state.counters.failedFlushes++;
        state.buffer.unshift(...batch.slice(0, Math.max(0, MAX_BUFFERED - state.buffer.length)));
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

/**
 * Visit statistics: one beacon, from its body to the event written (decision
 * 0023). No database here: this module runs on the server's thread (the
 * route and the fast path, through stats-ingest.ts) and on the beacons' own
 * thread (server/stats-beacon-thread.ts), each with the day's salts it was
 * handed.
 *
 * `checkBeacon` reads and checks a body with Zod (400 when malformed) and
 * keeps it with the few facts of its request the count needs; `classifyAll`
 * turns a batch of those into events just before they are written: dropped
 * when they must not be counted (a crawler, Global Privacy Control, an
 * opted-out browser, a preview), the visitor hashed with the day's salt, the
 * referrer, campaign and search term worked out. Done a beacon at a time
 * between the pages, that work cost several times more (issue 32).
 *
 * A visitor is sha256(day's salt, site, IP address, user agent), cut to 48
 * bits. The address and user agent wait in memory only until their batch is
 * classified (about a second), and are never written; an event whose day's
 * salt was not in memory yet keeps them (`raw`) until the writer hashes it.
 */
import { hash } from "node:crypto";
import { isbot } from "isbot";
import { z } from "zod";
import {
  addDays,
  browserFamily,
  campaignKey,
  deviceClass,
  firmDay,
  MAX_TIME_ON_PAGE_MS,
  outboundTarget,
  referrerKey,
  startOfFirmDay,
  STATS_OPT_OUT_COOKIE,
} from "~/lib/stats";
import { MAX_QUERY_LENGTH } from "~/lib/search";
import type { StatsEventRow } from "../db/stats";
import { getEnv } from "../env";
import { log } from "../log";

/** A beacon is small: anything bigger is refused unread. */
export const MAX_BEACON_BYTES = 4096;

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

export const OPT_OUT = new RegExp(`(?:^|;\\s*)${STATS_OPT_OUT_COOKIE.replace(".", "\\.")}=1(?:;|$)`);

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

/** A beacon as received: checked, with what its request said; classified with its batch. */
export type Received = { beacon: Beacon; request: BeaconSource; at: Date; target: string | null };

/** An event ready for the writer, but for the staff check (`token`) and, rarely, the hash (`raw`). */
export type Pending = Omit<StatsEventRow, "visitor"> & {
  visitor: number | null;
  /** Only until the day's salt is in memory (a start-up or a day change while the database did not answer). */
  raw?: { ip: string; ua: string };
  /** A staff session token the request carried (not checked yet: the writer checks the batch's in one query). */
  token: string | null;
};

/** The day's salts by Toronto day (today's and tomorrow's), as the writer keeps them. */
export type Salts = ReadonlyMap<string, string>;

/*
 * What every beacon would otherwise work out again (2,000 a second, issue 32):
 * the site's host, the firm's day, and what a User-Agent says. Each is kept
 * and checked cheaply.
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
export function dayOf(at: Date): string {
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

export function hashVisitor(salt: string, ip: string, ua: string): number {
  // One-shot hashing: a third cheaper than createHash().update().digest() (2,000 beacons a second).
  return hash("sha256", `${salt}\n${siteHost().host}\n${ip}\n${ua}`, "buffer").readUIntBE(0, 6);
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

/** The event's fields common to every kind, or null when the request is not counted. */
export function baseEvent(request: BeaconSource, kind: StatsEventRow["kind"], path: string, at: Date, salts: Salts): Pending | null {
  const ua = (request.userAgent ?? "").slice(0, 512);
  if (exclusionOf(request, ua)) return null;
  const ip = request.clientIp;
  const salt = salts.get(dayOf(at));
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

/** A beacon's body: JSON (what the enhancement module sends), or the same fields URL-encoded. */
function parseBody(text: string): unknown {
  return text.trimStart().startsWith("{") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
}

/**
 * One beacon's body, checked with Zod: 204 with the beacon as received, or
 * 400 when malformed. Whether it counts, the visitor's hash, the referrer and
 * the rest are worked out with its batch (`classifyAll`).
 */
export function checkBeacon(text: string, source: BeaconSource, now = new Date()): { status: 204; received: Received } | { status: 400 } {
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
  return { status: 204, received: { beacon, request: source, at: now, target } };
}

/** A received beacon as an event, or null when it is not counted. */
function classify({ beacon, request, at, target }: Received, salts: Salts): Pending | null {
  const url = new URL(beacon.p, "http://x");
  // Previews (a shared link's token is in its path) are not the public site.
  if (url.pathname.startsWith("/preview/")) return null;
  const event = baseEvent(request, beacon.k === "v" ? "view" : beacon.k === "l" ? "leave" : "outbound", url.pathname, at, salts);
  if (!event) return null;
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

/** How many received beacons are classified before the loop lets other work in (a few milliseconds). */
const CLASSIFY_SLICE = 250;

/** A batch's received beacons as events (those not counted left out; events already made kept), a slice at a time. */
export async function classifyAll(batch: (Received | Pending)[], salts: Salts): Promise<Pending[]> {
  const events: Pending[] = [];
  for (let i = 0; i < batch.length; i++) {
    if (i > 0 && i % CLASSIFY_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const item = batch[i];
    let event: Pending | null = null;
    try {
      event = "beacon" in item ? classify(item, salts) : item;
    } catch (error) {
      // One beacon Zod let through but the classification could not read is left out, not its batch.
      log("warn", "visit statistics: a beacon could not be classified", { error: (error as Error).message });
    }
    if (event) events.push(event);
  }
  return events;
}

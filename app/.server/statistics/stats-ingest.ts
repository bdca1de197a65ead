/**
 * Visit statistics: the ingestion's buffer and writer (decision 0023). The
 * public pages' beacon (app/enhance/stats.ts) posts to POST /stats/beacon:
 * on the server's own port (app/routes/stats/beacon.ts, or the production
 * server's fast path, stats-beacon-http.ts) or, behind the reference nginx,
 * on the instance's beacon thread (STATS_BEACON_PORT,
 * server/stats-beacon-thread.ts). A beacon is checked with Zod and goes into
 * a buffer in memory with the few facts of its request the count needs
 * (stats-beacon.ts); the thread hands its beacons over already classified,
 * several times a second. The buffer is written in batches, every second or
 * every BATCH_SIZE events, and once more when the server stops: no database
 * round trip per beacon. Just before a batch is written, the beacons received
 * here are classified in one loop (stats-beacon.ts `classifyAll`).
 *
 * The writer keeps the day's salts (db/stats.ts; deleted two days after their
 * day, so a visitor cannot be recognised the next day, nor the hash turned
 * back into an address) and hands them to the beacon thread.
 *
 * Staff: a request with a session cookie is set aside and, in the flush,
 * checked against the live sessions in one query for the whole batch (the
 * answer is kept a minute per token), so signed-in staff are not counted
 * without a database round trip per beacon. Staff can also keep their own
 * browser out for good (STATS_OPT_OUT_COOKIE, set from the Statistics screen).
 */
import { addDays, firmDay, STATS_OPT_OUT_COOKIE, type ConversionKind } from "~/lib/stats";
import { ensureSalts, insertStatsEvents, liveSessionTokens, type StatsEventRow } from "../db/stats";
import { getEnv } from "../env";
import { log } from "../log";
import { requestInfo, type RequestContext } from "../http/request-context";
import {
  baseEvent,
  checkBeacon,
  classifyAll,
  dayOf,
  hashVisitor,
  MAX_BEACON_BYTES,
  OPT_OUT,
  type BeaconSource,
  type Pending,
  type Received,
} from "./stats-beacon";

/** Written every this often… */
export const FLUSH_INTERVAL_MS = 1000;
/** …or as soon as this many events wait. */
export const BATCH_SIZE = 2000;
/** Events kept while the database does not answer; more are dropped (and logged). */
export const MAX_BUFFERED = 200_000;
/** A staff session token's check is trusted this long. */
const SESSION_CHECK_MS = 60_000;

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

const state = {
  /** Beacons as received, and events (from the beacon thread, conversions, a batch kept after a failed write) ready to write. */
  buffer: [] as (Received | Pending)[],
  timer: undefined as NodeJS.Timeout | undefined,
  flushing: null as Promise<void> | null,
  salts: new Map<string, string>(),
  sessions: new Map<string, { live: boolean; until: number }>(),
  counters: { accepted: 0, written: 0, batches: 0, staff: 0, dropped: 0, failedFlushes: 0 },
  lastDropLog: 0,
};

/** Told the salts whenever they change (the beacon thread classifies with them). */
const saltWatchers = new Set<(salts: Map<string, string>) => void>();

/** Calls `watcher` with the salts now and whenever they change; the returned function stops it. */
export function watchSalts(watcher: (salts: Map<string, string>) => void): () => void {
  saltWatchers.add(watcher);
  watcher(new Map(state.salts));
  return () => saltWatchers.delete(watcher);
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

/**
 * One beacon's body: checked with Zod and buffered as received (400 when
 * malformed). Synchronous: never waits for the database. Whether it counts,
 * the visitor's hash, the referrer and the rest are worked out with its batch.
 * Used by the route and by the production server's fast path
 * (stats-beacon-http.ts).
 */
export function ingestBeaconText(text: string, source: BeaconSource, now = new Date()): { status: 204 | 400 } {
  const checked = checkBeacon(text, source, now);
  if (checked.status === 204) enqueue(checked.received);
  return { status: checked.status };
}

/**
 * Events from the beacon thread (server/stats-beacon-thread.ts): its beacons
 * classified with the salts it was handed, `received` beacons in all.
 */
export function acceptThreadEvents(events: Pending[], received: number): void {
  state.counters.accepted += received - events.length;
  for (const event of events) enqueue(event);
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
    const event = baseEvent(sourceOf(request, context), "conversion", new URL(request.url).pathname, now, state.salts);
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
  let dropped = 0;
  for (const day of state.salts.keys()) if (day < oldest && state.salts.delete(day)) dropped++;
  if (wanted.length || dropped) for (const watcher of saltWatchers) watcher(new Map(state.salts));
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
      const batch = await classifyAll(taken, state.salts);
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

/**
 * Events listed on other public pages (issue 45 item 8): the upcoming events
 * a lawyer speaks at (their profile) and a practice area's upcoming events
 * (its page). Upcoming as on /events: not yet ended; cancelled events are
 * left out here (/events still shows them, marked). Also the clock's part in
 * the page cache: pages listing upcoming events change when an event ends,
 * with no write to announce it (`eventsChangedSinceLastLook`, the `events-passed` job).
 */
import { and, asc, eq, or, sql, type SQL } from "drizzle-orm";
import type { PracticeArea } from "~/lib/practice";
import { db, type Db } from "./client";
import { EVENT_CARD_COLUMNS, type EventCard } from "./events";
import { events, eventsLookState, eventSpeakers } from "./schema";
import { eventIsPublic } from "./visibility";

function upcoming(now: Date): SQL {
  return and(eventIsPublic(), sql`${events.event_status} <> 'cancelled'`, sql`${events.ends_at} >= ${now.toISOString()}::timestamptz`)!;
}

/** The public upcoming events a team member speaks at, soonest first. */
export async function listUpcomingEventsOfSpeaker(memberId: number, now = new Date(), limit = 20): Promise<EventCard[]> {
  const rows = await db()
    .selectDistinct(EVENT_CARD_COLUMNS)
    .from(events)
    .innerJoin(eventSpeakers, eq(eventSpeakers.event_id, events.id))
    .where(and(upcoming(now), eq(eventSpeakers.member_id, memberId)))
    .orderBy(asc(events.starts_at), asc(events.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, past: false }));
}

/** A practice area's public upcoming events, soonest first (its page shows the first few). */
export async function listUpcomingEventsOfArea(area: PracticeArea, limit: number, now = new Date()): Promise<EventCard[]> {
  const rows = await db()
    .select(EVENT_CARD_COLUMNS)
    .from(events)
    .where(and(upcoming(now), eq(events.practice_area, area)))
    .orderBy(asc(events.starts_at), asc(events.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, past: false }));
}

/**
 * How many events, since the last look (made by any process) and up to `now`,
 * ended while public (an upcoming event turned past), or were written
 * (`updated_at`) or put in the Trash: the lists showing events may be out of
 * date. The look's end is kept for the next one. A write that announced itself
 * (content-events) is counted again, which only clears the cache once more;
 * one that did not is caught here within a minute. With no look on record,
 * the window begins `firstLookbackMs` before `now`.
 */
export async function eventsChangedSinceLastLook(now: Date, firstLookbackMs: number): Promise<number> {
  return db().transaction(async (tx) => {
    const [mark] = await tx.select().from(eventsLookState).where(eq(eventsLookState.id, 1)).for("update");
    const from = mark?.checked_until ?? new Date(now.getTime() - firstLookbackMs);
    if (from >= now) return 0;
    const within = (column: typeof events.ends_at | typeof events.updated_at | typeof events.deleted_at) =>
      sql`(${column} > ${from.toISOString()}::timestamptz and ${column} <= ${now.toISOString()}::timestamptz)`;
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(or(and(eventIsPublic(), within(events.ends_at)), within(events.updated_at), within(events.deleted_at)));
    await saveLook(tx, now);
    return row?.n ?? 0;
  });
}

/** Records a look up to `until` without announcing anything: the first start's demo events, written before any page was served. */
export async function markEventsLookedAt(until: Date): Promise<void> {
  await saveLook(db(), until);
}

/** The one row of `events_look_state`, written or moved to `until`. */
function saveLook(tx: Db, until: Date) {
  return tx
    .insert(eventsLookState)
    .values({ id: 1, checked_until: until })
    .onConflictDoUpdate({ target: eventsLookState.id, set: { checked_until: until } });
}

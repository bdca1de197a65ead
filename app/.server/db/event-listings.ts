/**
 * Events listed on other public pages (issue 45 item 8): the upcoming events
 * a lawyer speaks at (their profile) and a practice area's upcoming events
 * (its page). Upcoming as on /events: not yet ended; cancelled events are
 * left out here (/events still shows them, marked). Also the clock's part in
 * the page cache: pages listing upcoming events change when an event ends,
 * with no write to announce it (`eventsChangedBetween`, the `events-passed` job).
 */
import { and, asc, eq, or, sql, type SQL } from "drizzle-orm";
import type { PracticeArea } from "~/lib/practice";
import { db } from "./client";
import { EVENT_CARD_COLUMNS, type EventCard } from "./events";
import { events, eventSpeakers } from "./schema";
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
 * How many events, in (from, to], ended while public (an upcoming event
 * turned past), or were written (`updated_at`) or put in the Trash: the
 * lists showing events may be out of date. A write that announced itself
 * (content-events) is counted again, which only clears the cache once more;
 * one that did not is caught here within a minute.
 */
export async function eventsChangedBetween(from: Date, to: Date): Promise<number> {
  const within = (column: typeof events.ends_at | typeof events.updated_at | typeof events.deleted_at) =>
    sql`(${column} > ${from.toISOString()}::timestamptz and ${column} <= ${to.toISOString()}::timestamptz)`;
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(or(and(eventIsPublic(), within(events.ends_at)), within(events.updated_at), within(events.deleted_at)));
  return row?.n ?? 0;
}

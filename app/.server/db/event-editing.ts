/**
 * The dashboard's queries for events (issue 45): the list, one event with its
 * speakers, a save (with the articles' editorial workflow: version check,
 * revision, audit entry, scheduled publishing), moving and cancelling (the
 * registrants are told: `notify` keeps their e-mails in the same
 * transaction), and the Trash. The public queries and registrations are in
 * events.ts.
 *
 * A change of the start or end of an event that has registrations marks it
 * "rescheduled" (schema.org), keeps the start it had in `previous_starts_at`
 * and raises `sequence` (RFC 5545): calendars update the entry they hold.
 * Its reminders are sent again for the new time.
 */
import { and, asc, desc, eq, ilike, inArray, isNull, sql } from "drizzle-orm";
import { articleSlug } from "~/lib/slug";
import { readPage } from "./rows";
import type { ArticleState } from "./visibility";
import { fieldChanges, recordAudit, saveAction, type Actor, recordMovedToTrash } from "./audit";
import { contentChanged } from "./content-events";
import { db, type Db } from "./client";
import { checkVersion, recordRevision } from "./revisions";
import { publishDue } from "./scheduled-publishing";
import { eventRegistrations, events, eventSpeakers, team, type EventRegistrationRow } from "./schema";
import { escapeLike, freeSlug, withSlugRetry } from "./slugs";
import { recordPathMove } from "./redirects";
import { eventPath, venueAddress } from "~/lib/events";
import { stateColumns } from "./articles";
import { eventBySlug, setSpeakers, type Event, type EventInput, type SpeakerInput } from "./events";

export const ADMIN_EVENTS_PAGE_SIZE = 50;

/** Columns the form writes (everything but the editorial and calendar bookkeeping). */
export type EventFields = Omit<EventInput, "status" | "published_at" | "speakers">;
export type EventStateInput = { status: ArticleState; publishAt?: Date | null };

/** What a save or a cancellation tells the registrants: kept in the outbox in the change's transaction, sent after it. */
export type Notify = (tx: Db, event: Event, registrations: EventRegistrationRow[]) => Promise<unknown>;

export async function getEventById(id: number, options: { withTrashed?: boolean } = {}): Promise<Event | undefined> {
  const [row] = await db()
    .select()
    .from(events)
    .where(and(eq(events.id, id), options.withTrashed ? undefined : isNull(events.deleted_at)))
    .limit(1);
  return row;
}

/** A public event's row for a staff preview, whatever its state (not in the Trash). */
export function getEventBySlugForStaff(slug: string): Promise<Event | undefined> {
  return eventBySlug(slug, isNull(events.deleted_at));
}

/** An event's speakers as the form and revisions keep them (ids and guests, in order). */
export async function eventSpeakerInputs(eventId: number, tx: Db = db()): Promise<SpeakerInput[]> {
  const rows = await tx
    .select({
      member_id: eventSpeakers.member_id,
      guest_name: eventSpeakers.guest_name,
      guest_organisation: eventSpeakers.guest_organisation,
    })
    .from(eventSpeakers)
    .where(eq(eventSpeakers.event_id, eventId))
    .orderBy(asc(eventSpeakers.position), asc(eventSpeakers.id));
  return rows.map((r) =>
    r.member_id === null ? { guestName: r.guest_name, guestOrganisation: r.guest_organisation } : { memberId: r.member_id },
  );
}

/** Speakers as text for the audit trail and History ("Name; Guest (Organisation)"). */
async function speakerNames(tx: Db, speakers: readonly SpeakerInput[]): Promise<string> {
  const ids = speakers.flatMap((s) => ("memberId" in s ? [s.memberId] : []));
  const names = new Map(
    ids.length
      ? (await tx.select({ id: team.id, name: team.full_name }).from(team).where(inArray(team.id, ids))).map((m) => [m.id, m.name])
      : [],
  );
  return speakers
    .map((s) =>
      "memberId" in s ? (names.get(s.memberId) ?? "") : s.guestOrganisation ? `${s.guestName} (${s.guestOrganisation})` : s.guestName,
    )
    .join("; ");
}

/** The event (not in the Trash), its row locked until the transaction ends; undefined when there is none. */
async function lockEvent(tx: Db, id: number): Promise<Event | undefined> {
  const [row] = await tx
    .select()
    .from(events)
    .where(and(eq(events.id, id), isNull(events.deleted_at)))
    .for("update");
  return row;
}

/** The columns a save writes, as the row has them now (a restore of History keeps all but the texts). */
export function eventFieldsOf(e: Event): EventFields {
  return {
    title: e.title,
    summary: e.summary,
    copy: e.copy,
    starts_at: e.starts_at,
    ends_at: e.ends_at,
    format: e.format,
    practice_area: e.practice_area,
    ...venueAddress(e),
    webinar_url: e.webinar_url,
    capacity: e.capacity,
    registration_closes_at: e.registration_closes_at,
    cpd_substantive_minutes: e.cpd_substantive_minutes,
    cpd_professionalism_minutes: e.cpd_professionalism_minutes,
    accreditation_number: e.accreditation_number,
    accreditation_date: e.accreditation_date,
    recording_url: e.recording_url,
    recording_captions: e.recording_captions,
  };
}

/** Dashboard list: soonest upcoming first, then past ones; search on title; not in the Trash. */
export async function listEventsForAdmin(options: { search?: string; page?: number; now?: Date } = {}) {
  const q = (options.search ?? "").replace(/\0/g, "").trim();
  const where = and(isNull(events.deleted_at), q ? ilike(events.title, `%${escapeLike(q)}%`) : undefined);
  const now = (options.now ?? new Date()).toISOString();
  const past = sql<boolean>`(${events.ends_at} < ${now}::timestamptz)`;
  return readPage(events, where, options.page ?? 1, ADMIN_EVENTS_PAGE_SIZE, (limit, offset) =>
    db()
      .select({
        id: events.id,
        slug: events.slug,
        title: events.title,
        starts_at: events.starts_at,
        format: events.format,
        status: events.status,
        published_at: events.published_at,
        event_status: events.event_status,
        capacity: events.capacity,
        past,
        taken: sql<number>`(select count(*)::int from ${eventRegistrations} r where r.event_id = ${events.id} and r.status in ('registered', 'attended'))`,
        waiting: sql<number>`(select count(*)::int from ${eventRegistrations} r where r.event_id = ${events.id} and r.status = 'waiting')`,
      })
      .from(events)
      .where(where)
      .orderBy(asc(past), sql`case when ${past} then null else ${events.starts_at} end asc`, desc(events.starts_at), desc(events.id))
      .limit(limit)
      .offset(offset),
  );
}

/** People of these statuses whose data are kept (not erased): who is told of a move or a cancellation. */
async function activeRegistrations(tx: Db, eventId: number, statuses: string[]) {
  return tx
    .select()
    .from(eventRegistrations)
    .where(
      and(eq(eventRegistrations.event_id, eventId), inArray(eventRegistrations.status, statuses), isNull(eventRegistrations.erased_at)),
    )
    .orderBy(asc(eventRegistrations.id));
}

/** The revision and audit record of an event keep its speakers as text. */
const revisionOf = (row: Event, speakers: string) => ({ ...row, speakers });

/** Adds an event with the editorial state chosen (a draft, scheduled, or published now). */
export async function addEvent(
  input: EventFields & { state: EventStateInput; speakers: readonly SpeakerInput[] },
  actor: Actor,
): Promise<Event> {
  const { state, speakers, ...columns } = input;
  const { status, published_at } = stateColumns(state);
  const row = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const slug = await freeSlug(tx, events, articleSlug(columns.title));
      const [created] = await tx
        .insert(events)
        .values({ ...columns, status, published_at, slug })
        .returning();
      await setSpeakers(tx, created.id, speakers);
      const names = await speakerNames(tx, speakers);
      await recordAudit(tx, actor, {
        action: created.status === "published" ? "publish" : "create",
        itemType: "event",
        itemId: created.id,
        itemLabel: created.title,
        changes: fieldChanges(null, revisionOf(created, names), { ignore: ["id", "webinar_url"] }),
      });
      await recordRevision(tx, "event", revisionOf(created, names), actor);
      return created;
    }),
  );
  contentChanged("events");
  return row;
}

export type EventSaved = { before: Event; after: Event; moved: boolean; promoted: number };

/**
 * Gives the places now free on an upcoming, not cancelled event to those
 * waiting, first come first served (the event's row is locked by the
 * caller's save). Returns the registrations promoted.
 */
async function promoteWaiting(tx: Db, event: Event, now = new Date()): Promise<EventRegistrationRow[]> {
  if (event.event_status === "cancelled" || event.starts_at <= now) return [];
  const [{ taken } = { taken: 0 }] = await tx
    .select({ taken: sql<number>`count(*)::int` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, event.id), inArray(eventRegistrations.status, ["registered", "attended"])));
  const free = event.capacity === null ? Number.MAX_SAFE_INTEGER : event.capacity - taken;
  if (free <= 0) return [];
  const first = await tx
    .select({ id: eventRegistrations.id })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, event.id), eq(eventRegistrations.status, "waiting")))
    .orderBy(asc(eventRegistrations.id))
    .limit(Math.min(free, 100_000));
  if (!first.length) return [];
  return tx
    .update(eventRegistrations)
    .set({ status: "registered", promoted_at: now, updated_at: now })
    .where(
      inArray(
        eventRegistrations.id,
        first.map((r) => r.id),
      ),
    )
    .returning();
}

/**
 * Saves an event. With `expectedVersion`, a save over someone else's newer
 * one throws EditConflict and writes nothing. A changed time on an event
 * with registrations is a move (see the module comment), and more places go
 * to those waiting: `notify.moved` and `notify.promoted` keep the
 * registrants' e-mails in the same transaction.
 */
export async function saveEvent(
  id: number,
  input: EventFields & { state: EventStateInput; speakers: readonly SpeakerInput[]; expectedVersion?: number },
  actor: Actor,
  notify?: { moved?: Notify; promoted?: Notify },
): Promise<EventSaved | undefined> {
  const { state, speakers, expectedVersion, ...columns } = input;
  const result = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const before = await lockEvent(tx, id);
      if (!before) return undefined;
      await checkVersion(tx, "event", id, before.version, expectedVersion);
      const speakersBefore = await speakerNames(tx, await eventSpeakerInputs(id, tx));
      const timeChanged =
        before.starts_at.getTime() !== columns.starts_at.getTime() || before.ends_at.getTime() !== columns.ends_at.getTime();
      const registrants = timeChanged ? await activeRegistrations(tx, id, ["registered", "waiting"]) : [];
      const moved = timeChanged && registrants.length > 0 && before.event_status !== "cancelled";
      const slug = before.title === columns.title ? before.slug : await freeSlug(tx, events, articleSlug(columns.title), id);
      const { status, published_at } = stateColumns(state, { status: before.status, published_at: before.published_at, date: "" });
      const [after] = await tx
        .update(events)
        .set({
          ...columns,
          status,
          published_at,
          slug,
          updated_at: new Date(),
          version: before.version + 1,
          ...(moved
            ? {
                event_status: "rescheduled",
                previous_starts_at: before.starts_at,
                sequence: before.sequence + 1,
              }
            : {}),
        })
        .where(eq(events.id, id))
        .returning();
      await setSpeakers(tx, id, speakers);
      // A public event renamed: its old address (and its calendar file's) answers 301 to the new one, as an
      // article's does (drizzle/0018: only while public, so a title not out yet is never told).
      if (after.slug !== before.slug && after.status === "published") {
        await recordPathMove(tx, eventPath(before.slug), eventPath(after.slug));
        await recordPathMove(tx, `${eventPath(before.slug)}.ics`, `${eventPath(after.slug)}.ics`);
      }
      const names = await speakerNames(tx, speakers);
      if (moved) {
        // The reminders go again for the new time.
        await tx
          .update(eventRegistrations)
          .set({ reminded_24h_at: null, reminded_1h_at: null })
          .where(and(eq(eventRegistrations.event_id, id), eq(eventRegistrations.status, "registered")));
        if (notify?.moved) await notify.moved(tx, after, registrants);
      }
      // More places (or no limit now) on an upcoming event: those waiting take them first, in their order.
      const promoted = await promoteWaiting(tx, after);
      if (promoted.length && notify?.promoted) await notify.promoted(tx, after, promoted);
      await recordAudit(tx, actor, {
        action: saveAction(before, after),
        itemType: "event",
        itemId: id,
        itemLabel: after.title,
        changes: fieldChanges(revisionOf(before, speakersBefore), revisionOf(after, names), { ignore: ["webinar_url"] }),
      });
      await recordRevision(tx, "event", revisionOf(after, names), actor);
      return { before, after, moved, promoted: promoted.length };
    }),
  );
  if (result) contentChanged("events");
  return result;
}

/**
 * Cancels an event: its page says so (schema.org EventCancelled), registration
 * closes, and everyone registered or waiting is told (`notify`), with a
 * calendar cancellation (METHOD:CANCEL, a higher SEQUENCE). Undefined when
 * not found; "already" when it was cancelled before.
 */
export async function cancelEvent(id: number, actor: Actor, notify?: Notify): Promise<Event | "already" | undefined> {
  const result = await db().transaction(async (tx) => {
    const before = await lockEvent(tx, id);
    if (!before) return undefined;
    if (before.event_status === "cancelled") return "already" as const;
    const [after] = await tx
      .update(events)
      .set({ event_status: "cancelled", sequence: before.sequence + 1, updated_at: new Date(), version: before.version + 1 })
      .where(eq(events.id, id))
      .returning();
    const registrants = await activeRegistrations(tx, id, ["registered", "waiting"]);
    if (notify && registrants.length) await notify(tx, after, registrants);
    await recordAudit(tx, actor, {
      action: "update",
      itemType: "event",
      itemId: id,
      itemLabel: after.title,
      changes: { event_status: { before: before.event_status, after: "cancelled" } },
    });
    await recordRevision(tx, "event", revisionOf(after, await speakerNames(tx, await eventSpeakerInputs(id, tx))), actor);
    return after;
  });
  if (result) contentChanged("events");
  return result;
}

/** People registered or waiting for an upcoming event that is not cancelled: it cannot go to the Trash before it is cancelled. */
export async function registrantsToTell(event: Event, now = new Date()): Promise<number> {
  if (event.event_status === "cancelled" || event.ends_at < now) return 0;
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, event.id), inArray(eventRegistrations.status, ["registered", "waiting"])));
  return row?.n ?? 0;
}

/** Moves an event to the Trash (its URL stays reserved; trash.ts restores or removes it). */
export async function trashEvent(id: number, actor: Actor): Promise<Event | undefined> {
  const row = await db().transaction(async (tx) => {
    const [trashed] = await tx
      .update(events)
      .set({ deleted_at: new Date() })
      .where(and(eq(events.id, id), isNull(events.deleted_at)))
      .returning();
    if (trashed) await recordMovedToTrash(tx, actor, "event", id, trashed.title);
    return trashed;
  });
  if (row) contentChanged("events");
  return row;
}

/** Scheduled events whose publish time has come go live (the `scheduled-publishing` job: publishDue). */
export function publishDueEvents(actor: Actor, now = new Date()): Promise<Event[]> {
  return publishDue("event", actor, now, async (tx, row) => revisionOf(row, await speakerNames(tx, await eventSpeakerInputs(row.id, tx))));
}

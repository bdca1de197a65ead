/**
 * Queries for events and their registrations (tables `events`,
 * `event_speakers`, `event_registrations`; issue 45).
 *
 * Capacity: a registration locks its event's row (SELECT … FOR UPDATE) in
 * the transaction that counts the places taken and writes the row, so two
 * people can never take the last place: the second waits for the first's
 * commit, then counts it. Cancelling locks the same row, so the first person
 * waiting is promoted exactly once.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, like, sql, type SQL } from "drizzle-orm";
import type { EventFilters } from "~/lib/events";
import { articleSlug } from "~/lib/slug";
import { clampPage, pageCount, pageOffset } from "~/lib/pagination";
import { EVENTS_PAGE_SIZE } from "~/lib/events";
import { fieldChanges, recordAudit, type Actor } from "./audit";
import { contentChanged } from "./content-events";
import { db, type Db } from "./client";
import { eventRegistrations, events, eventSpeakers, team, type EventRegistrationRow, type EventRow } from "./schema";
import { freeSlug, withSlugRetry } from "./slugs";
import { rowFromJson, rowsOf } from "./rows";
import { slugCandidates } from "./slug-lookup";
import { eventIsPublic, teamMemberIsPublic } from "./visibility";
import { cancelTokenId, checkCancelToken, cancelToken } from "../events/cancel-link";

export type Event = EventRow;
export type SpeakerInput = { memberId: number } | { guestName: string; guestOrganisation: string };

export type EventInput = Omit<
  typeof events.$inferInsert,
  "id" | "slug" | "created_at" | "updated_at" | "version" | "deleted_at" | "sequence" | "previous_starts_at" | "event_status"
> & { speakers?: readonly SpeakerInput[] };

/** Replaces an event's speakers with `speakers`, in their order. */
export async function setSpeakers(tx: Db, eventId: number, speakers: readonly SpeakerInput[]) {
  await tx.delete(eventSpeakers).where(eq(eventSpeakers.event_id, eventId));
  if (!speakers.length) return;
  await tx
    .insert(eventSpeakers)
    .values(
      speakers.map((s, position) =>
        "memberId" in s
          ? { event_id: eventId, position, member_id: s.memberId }
          : { event_id: eventId, position, guest_name: s.guestName, guest_organisation: s.guestOrganisation },
      ),
    );
}

/** Adds an event (and its speakers and audit entry, in one transaction). */
export async function createEvent(input: EventInput, actor: Actor): Promise<Event> {
  const { speakers = [], ...columns } = input;
  const row = await withSlugRetry(() =>
    db().transaction(async (tx) => {
      const slug = await freeSlug(tx, events, articleSlug(columns.title));
      const [created] = await tx
        .insert(events)
        .values({ ...columns, slug })
        .returning();
      await setSpeakers(tx, created.id, speakers);
      await recordAudit(tx, actor, {
        action: created.status === "published" ? "publish" : "create",
        itemType: "event",
        itemId: created.id,
        itemLabel: created.title,
        changes: fieldChanges(null, created, { ignore: ["id", "webinar_url"] }),
      });
      return created;
    }),
  );
  contentChanged("events");
  return row;
}

/** A public event by its URL (drafts and trashed events are not found). */
export function getEventBySlug(slug: string): Promise<Event | undefined> {
  return eventBySlug(slug, eventIsPublic());
}

/** The event at this URL that meets `condition` (public, or not in the Trash); none for a slug no URL could hold. */
export async function eventBySlug(slug: string, condition: SQL): Promise<Event | undefined> {
  if (slug.includes("\0") || slug.length > 300) return undefined;
  const [row] = await db()
    .select()
    .from(events)
    .where(and(eq(events.slug, slug), condition))
    .limit(1);
  return row;
}

/** Whether an uploaded recording (its storage key) belongs to a public event that is over at `now` (server/recordings.ts). */
export async function recordingIsPublic(key: string, now = new Date()): Promise<boolean> {
  const [row] = await db()
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.recording_url, key), eventIsPublic(), sql`${events.ends_at} < ${now}`))
    .limit(1);
  return !!row;
}

/** Whether captions belong to an uploaded recording the public may watch now (recordingIsPublic's event). */
export async function captionsArePublic(key: string, now = new Date()): Promise<boolean> {
  const [row] = await db()
    .select({ id: events.id })
    .from(events)
    .where(
      and(eq(events.recording_captions, key), like(events.recording_url, "recordings/%"), eventIsPublic(), sql`${events.ends_at} < ${now}`),
    )
    .limit(1);
  return !!row;
}

/** A public event by another spelling of its slug (any case; slug-lookup.ts's spellings): the loader answers 301 to it. */
export async function findMovedEventSlug(raw: string): Promise<string | undefined> {
  const candidates = slugCandidates("post", raw);
  if (!candidates.length) return undefined;
  const [row] = await db()
    .select({ slug: events.slug })
    .from(events)
    .where(and(inArray(sql`lower(${events.slug})`, candidates), eventIsPublic()))
    .orderBy(asc(events.id))
    .limit(1);
  return row && row.slug !== raw ? row.slug : undefined;
}

export type EventSpeaker = { slug: string | null; name: string; organisation: string; title: string };

/** An event's speakers in order: team members the public may see (with their profile's slug), and guests. */
export async function listEventSpeakers(eventId: number): Promise<EventSpeaker[]> {
  const rows = await db()
    .select({
      member_id: eventSpeakers.member_id,
      guest_name: eventSpeakers.guest_name,
      guest_organisation: eventSpeakers.guest_organisation,
      slug: team.slug,
      full_name: team.full_name,
      title: team.title,
      public: sql<boolean>`coalesce(${teamMemberIsPublic()}, false)`,
    })
    .from(eventSpeakers)
    .leftJoin(team, eq(team.id, eventSpeakers.member_id))
    .where(eq(eventSpeakers.event_id, eventId))
    .orderBy(asc(eventSpeakers.position), asc(eventSpeakers.id));
  return rows
    .filter((r) => r.member_id === null || r.public)
    .map((r) =>
      r.member_id === null
        ? { slug: null, name: r.guest_name, organisation: r.guest_organisation, title: "" }
        : { slug: r.slug, name: r.full_name ?? "", organisation: "", title: r.title ?? "" },
    );
}

/** Places taken (registered or attended). */
export async function countTaken(eventId: number, tx: Db = db()): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, eventId), inArray(eventRegistrations.status, ["registered", "attended"])));
  return row?.n ?? 0;
}

function filterWhere(filters: EventFilters): SQL {
  return and(
    eventIsPublic(),
    filters.area === "all" ? undefined : eq(events.practice_area, filters.area),
    filters.format === "all" ? undefined : eq(events.format, filters.format),
  )!;
}

/** The columns of an event's card (the events list, the home page, a practice page, a lawyer's page). */
export const EVENT_CARD_COLUMNS = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  summary: events.summary,
  starts_at: events.starts_at,
  ends_at: events.ends_at,
  format: events.format,
  practice_area: events.practice_area,
  event_status: events.event_status,
};

export type EventCard = Pick<
  Event,
  "id" | "slug" | "title" | "summary" | "starts_at" | "ends_at" | "format" | "practice_area" | "event_status"
> & {
  past: boolean;
};

/** One page of public events: upcoming first (soonest first), then past ones (latest first). */
export async function listEventPage(options: { filters: EventFilters; page: number; now?: Date }) {
  const now = options.now ?? new Date();
  const where = filterWhere(options.filters);
  const [{ total } = { total: 0 }] = await db()
    .select({ total: sql<number>`count(*)::int` })
    .from(events)
    .where(where);
  const page = clampPage(options.page, total, EVENTS_PAGE_SIZE);
  const past = sql<boolean>`(${events.ends_at} < ${now.toISOString()}::timestamptz)`;
  const items = await db()
    .select({ ...EVENT_CARD_COLUMNS, past })
    .from(events)
    .where(where)
    .orderBy(asc(past), sql`case when ${past} then null else ${events.starts_at} end asc`, desc(events.starts_at), asc(events.id))
    .limit(EVENTS_PAGE_SIZE)
    .offset(pageOffset(page, EVENTS_PAGE_SIZE));
  return { items: items as EventCard[], total, page, pageCount: pageCount(total, EVENTS_PAGE_SIZE) };
}

/** Public events for the sitemap. */
export async function listPublicEventSlugs(): Promise<{ slug: string; updated_at: Date }[]> {
  return db().select({ slug: events.slug, updated_at: events.updated_at }).from(events).where(eventIsPublic()).orderBy(asc(events.id));
}

// ---- Registrations -------------------------------------------------------

export type RegistrationInput = {
  name: string;
  email: string;
  organisation: string;
  job_title: string;
  accessibility_needs: string;
};

export type RegistrationOutcome =
  /** A new registration: a place, or the waiting list. `token` is its cancel link's token (events/cancel-link.ts). */
  | { outcome: "registered" | "waiting"; registration: EventRegistrationRow; token: string }
  /** The address is already registered or waiting: nothing changes (the form answers the same). */
  | { outcome: "already"; registration: EventRegistrationRow }
  /** The event is not public, cancelled, over, or registration has closed. */
  | { outcome: "closed" };

/** The SHA-256 kept of a cancel link sent before links were signed (`cancel_token_hash`). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new cancel nonce: a registration's earlier links stop working (events/cancel-link.ts). */
export function newCancelNonce(): string {
  return randomBytes(18).toString("base64url");
}

/** Registration is open: a public, not cancelled event before its closing time (or its start). The same conditions are in the event_registration_take function (migrations 0025, 0027, 0028): change them together. */
export function registrationOpen(event: Pick<Event, "event_status" | "starts_at" | "registration_closes_at">, now = new Date()): boolean {
  if (event.event_status === "cancelled") return false;
  const closes = event.registration_closes_at ?? event.starts_at;
  return now < closes;
}

/**
 * Registers an address for an event: a place while one is left, else the
 * waiting list. One call of `event_registration_take` (migrations 0025, 0027, 0028) locks
 * the event's row, counts the places taken and writes the registration, so the
 * lock is held only while PostgreSQL runs it, not across round trips from here
 * (registrations of one event take it in turn). Its conditions for an open
 * event are `eventIsPublic()` and `registrationOpen()`'s: change them together.
 */
export async function registerForEvent(eventId: number, input: RegistrationInput, now = new Date()): Promise<RegistrationOutcome> {
  const email = input.email.trim().toLowerCase();
  // One round trip: the function also returns the registration's row as it wrote or found it (migration 0028).
  const [taken] = rowsOf<{ outcome: "closed" | "already" | "registered" | "waiting"; registration: unknown }>(
    await db().execute(sql`select outcome, registration from event_registration_take(
      ${eventId}::integer, ${email}, ${input.name}, ${input.organisation}, ${input.job_title}, ${input.accessibility_needs},
      ${newCancelNonce()}, ${now.toISOString()}::timestamptz)`),
  );
  if (!taken || taken.outcome === "closed" || taken.registration === null) return { outcome: "closed" };
  const registration = rowFromJson(eventRegistrations, taken.registration);
  if (taken.outcome === "already") return { outcome: "already", registration };
  return { outcome: taken.outcome, registration, token: cancelToken(registration) };
}

/**
 * A registration by its cancel link's token, with its event: a signed link
 * (events/cancel-link.ts) checked against the registration's current nonce,
 * or a link sent before links were signed, found by its SHA-256. None for an
 * erased registration or an event that has ended.
 */
export async function getRegistrationByToken(
  token: string,
  now = new Date(),
): Promise<{ registration: EventRegistrationRow; event: Event } | undefined> {
  if (!token || token.length > 100) return undefined;
  const id = cancelTokenId(token);
  const [row] = await db()
    .select({ registration: eventRegistrations, event: events })
    .from(eventRegistrations)
    .innerJoin(events, eq(events.id, eventRegistrations.event_id))
    .where(
      and(
        id === null ? eq(eventRegistrations.cancel_token_hash, hashToken(token)) : eq(eventRegistrations.id, id),
        isNull(eventRegistrations.erased_at),
      ),
    )
    .limit(1);
  if (!row || (id !== null && !checkCancelToken(token, row.registration))) return undefined;
  return now < row.event.ends_at ? row : undefined;
}

export type CancelOutcome<T> = {
  registration: EventRegistrationRow;
  event: Event;
  /** The first person waiting, given the freed place. */
  promoted: EventRegistrationRow | null;
  /** What `onPromoted` returned. */
  kept: T | null;
} | null;

/**
 * Cancels the registration the token names (null: no such link, or already
 * cancelled). A freed place goes to the first person waiting, in the same
 * transaction, with the event's row locked; `onPromoted` runs in that
 * transaction too (it keeps the e-mail telling them).
 */
export async function cancelRegistration<T = null>(
  token: string,
  onPromoted?: (tx: Db, promoted: EventRegistrationRow, event: Event) => Promise<T>,
  now = new Date(),
): Promise<CancelOutcome<T>> {
  const found = await getRegistrationByToken(token, now);
  if (!found) return null;
  return db().transaction(async (tx) => {
    const [event] = await tx.select().from(events).where(eq(events.id, found.event.id)).for("update");
    // Read again under the event's lock: the registration as the link found it (the same nonce, so not
    // cancelled and taken up again meanwhile, nor erased), still registered or waiting.
    const [before] = await tx
      .select({ status: eventRegistrations.status })
      .from(eventRegistrations)
      .where(
        and(
          eq(eventRegistrations.id, found.registration.id),
          eq(eventRegistrations.cancel_nonce, found.registration.cancel_nonce),
          isNull(eventRegistrations.erased_at),
          inArray(eventRegistrations.status, ["registered", "waiting"]),
        ),
      )
      .for("update");
    if (!before || !event) return null;
    const [registration] = await tx
      .update(eventRegistrations)
      .set({ status: "cancelled", cancelled_at: now, updated_at: now })
      .where(eq(eventRegistrations.id, found.registration.id))
      .returning();
    let promoted: EventRegistrationRow | null = null;
    let kept: T | null = null;
    const taken = await countTaken(event.id, tx);
    if (before.status === "registered" && (event.capacity === null || taken < event.capacity) && now < event.starts_at) {
      const [first] = await tx
        .select({ id: eventRegistrations.id })
        .from(eventRegistrations)
        .where(and(eq(eventRegistrations.event_id, event.id), eq(eventRegistrations.status, "waiting")))
        .orderBy(asc(eventRegistrations.id))
        .limit(1);
      if (first) {
        [promoted] = await tx
          .update(eventRegistrations)
          .set({ status: "registered", promoted_at: now, updated_at: now })
          .where(eq(eventRegistrations.id, first.id))
          .returning();
        if (onPromoted) kept = await onPromoted(tx, promoted, event);
      }
    }
    return { registration, event, promoted, kept };
  });
}

/** Registrations of an event by status (tests, the dashboard). */
export async function listRegistrations(eventId: number): Promise<EventRegistrationRow[]> {
  return db().select().from(eventRegistrations).where(eq(eventRegistrations.event_id, eventId)).orderBy(asc(eventRegistrations.id));
}

export type ReminderKind = "24h" | "1h";

/**
 * Claims the registrations due a reminder: registered people of a public,
 * not cancelled event starting within the reminder's lead time (and not yet
 * started). The row is marked in the same statement that claims it, so a
 * reminder goes once, whichever process runs the job, and never again after
 * a restart; `each` keeps its e-mail in the same transaction, so a claimed
 * reminder always has its message. Events already started are left.
 */
export async function claimDueReminders<T>(
  kind: ReminderKind,
  /** Runs in the claim's transaction for each registration claimed (keeps its e-mail in the outbox). */
  each: (tx: Db, item: { registration: EventRegistrationRow; event: Event }) => Promise<T>,
  now = new Date(),
  limit = 200,
): Promise<T[]> {
  const lead = kind === "24h" ? 24 * 3_600_000 : 3_600_000;
  const column = kind === "24h" ? eventRegistrations.reminded_24h_at : eventRegistrations.reminded_1h_at;
  const until = new Date(now.getTime() + lead);
  return db().transaction(async (tx) => {
    const due = await tx
      .select({ id: eventRegistrations.id })
      .from(eventRegistrations)
      .innerJoin(events, eq(events.id, eventRegistrations.event_id))
      .where(
        and(
          eq(eventRegistrations.status, "registered"),
          isNull(column),
          eventIsPublic(),
          sql`${events.event_status} <> 'cancelled'`,
          sql`${events.starts_at} > ${now.toISOString()}::timestamptz`,
          sql`${events.starts_at} <= ${until.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(asc(eventRegistrations.id))
      .limit(limit)
      .for("update", { of: eventRegistrations, skipLocked: true });
    if (!due.length) return [];
    const marked = await tx
      .update(eventRegistrations)
      .set(kind === "24h" ? { reminded_24h_at: now } : { reminded_1h_at: now })
      .where(
        inArray(
          eventRegistrations.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
    const eventIds = [...new Set(marked.map((r) => r.event_id))];
    const rows = await tx.select().from(events).where(inArray(events.id, eventIds));
    const byId = new Map(rows.map((e) => [e.id, e]));
    const out: T[] = [];
    for (const registration of marked) out.push(await each(tx, { registration, event: byId.get(registration.event_id)! }));
    return out;
  });
}

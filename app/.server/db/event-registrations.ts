/**
 * An event's registrants as staff see them (issue 45; permission
 * "event-registrations"): the list with counts by status and a search,
 * the CSV export, attendance (marked by hand or from the webinar
 * platform's CSV), certificates of attendance (claimed once each), and
 * the erasure of registrants' personal data on a schedule.
 *
 * Attendance: a registered person becomes "attended" (attended_at set); an
 * undo turns them back to "registered". Nobody waiting or cancelled is
 * marked. Every change is recorded in Activity.
 */
import { and, asc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { REGISTRATION_STATUSES, type RegistrationStatus } from "~/lib/events";
import { pageOffset } from "~/lib/pagination";
import { recordAudit, type Actor } from "./audit";
import { db, type Db } from "./client";
import { eventRegistrations, events, type EventRegistrationRow, type EventRow } from "./schema";

/** The registrations screen shows this many a page. */
export const REGISTRATIONS_PAGE_SIZE = 50;

export type RegistrationCounts = Record<RegistrationStatus, number> & { erased: number };

/** How many registrations of each status (erased ones still counted), and how many were erased. */
export async function registrationCounts(eventId: number): Promise<RegistrationCounts> {
  const rows = await db()
    .select({
      status: eventRegistrations.status,
      n: sql<number>`count(*)::int`,
      erased: sql<number>`count(${eventRegistrations.erased_at})::int`,
    })
    .from(eventRegistrations)
    .where(eq(eventRegistrations.event_id, eventId))
    .groupBy(eventRegistrations.status);
  const counts = { registered: 0, waiting: 0, cancelled: 0, attended: 0, erased: 0 } as RegistrationCounts;
  for (const r of rows) {
    if ((REGISTRATION_STATUSES as readonly string[]).includes(r.status)) counts[r.status as RegistrationStatus] += r.n;
    counts.erased += r.erased;
  }
  return counts;
}

/** A search's text as an ILIKE pattern (its own % and _ taken literally). */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchWhere(eventId: number, q: string, status?: RegistrationStatus): SQL {
  const text = q.trim();
  return and(
    eq(eventRegistrations.event_id, eventId),
    isNull(eventRegistrations.erased_at),
    status ? eq(eventRegistrations.status, status) : undefined,
    text
      ? or(
          ilike(eventRegistrations.name, likePattern(text)),
          ilike(eventRegistrations.email, likePattern(text)),
          ilike(eventRegistrations.organisation, likePattern(text)),
        )
      : undefined,
  )!;
}

/** One page of an event's registrations (in the order they came), searched by name, e-mail or organisation. */
export async function listEventRegistrations(options: {
  eventId: number;
  q: string;
  status?: RegistrationStatus;
  page: number;
}): Promise<{ rows: EventRegistrationRow[]; total: number }> {
  const where = searchWhere(options.eventId, options.q, options.status);
  const [{ total } = { total: 0 }] = await db()
    .select({ total: sql<number>`count(*)::int` })
    .from(eventRegistrations)
    .where(where);
  const rows = await db()
    .select()
    .from(eventRegistrations)
    .where(where)
    .orderBy(asc(eventRegistrations.id))
    .limit(REGISTRATIONS_PAGE_SIZE)
    .offset(pageOffset(options.page, REGISTRATIONS_PAGE_SIZE));
  return { rows, total };
}

/** Every registration the export holds (the screen's search, or all), erased ones left out. */
export async function registrationsForExport(eventId: number, q = ""): Promise<EventRegistrationRow[]> {
  return db().select().from(eventRegistrations).where(searchWhere(eventId, q)).orderBy(asc(eventRegistrations.id));
}

/** One registration of an event (not erased). */
export async function getEventRegistration(eventId: number, id: number): Promise<EventRegistrationRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  const [row] = await db()
    .select()
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, eventId), eq(eventRegistrations.id, id), isNull(eventRegistrations.erased_at)))
    .limit(1);
  return row;
}

/**
 * Marks the given registrations as attended (registered ones only), or
 * undoes it (attended ones back to registered). Returns the people changed;
 * recorded in Activity under the event.
 */
export async function setAttendance(
  event: Pick<EventRow, "id" | "title">,
  ids: readonly number[],
  attended: boolean,
  actor: Actor,
  now = new Date(),
): Promise<EventRegistrationRow[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (!wanted.length) return [];
  return db().transaction(async (tx) => {
    const changed = await tx
      .update(eventRegistrations)
      .set(
        attended ? { status: "attended", attended_at: now, updated_at: now } : { status: "registered", attended_at: null, updated_at: now },
      )
      .where(
        and(
          eq(eventRegistrations.event_id, event.id),
          inArray(eventRegistrations.id, wanted),
          isNull(eventRegistrations.erased_at),
          eq(eventRegistrations.status, attended ? "registered" : "attended"),
        ),
      )
      .returning();
    if (changed.length) await recordAttendance(tx, actor, event, attended ? "attended" : "registered", changed);
    return changed;
  });
}

async function recordAttendance(
  tx: Db,
  actor: Actor,
  event: Pick<EventRow, "id" | "title">,
  to: "attended" | "registered",
  changed: readonly EventRegistrationRow[],
  action: "update" | "import" = "update",
) {
  await recordAudit(tx, actor, {
    action,
    itemType: "event",
    itemId: event.id,
    itemLabel: `${event.title}: ${changed.length} ${changed.length === 1 ? "person" : "people"} ${to === "attended" ? "marked as attended" : "no longer marked as attended"}`,
    changes: { attendance: { before: to === "attended" ? "registered" : "attended", after: to }, people: { after: changed.length } },
  });
}

export type AttendanceImport = {
  /** Registered people now marked as attended. */
  marked: number;
  /** Addresses already marked as attended. */
  already: number;
  /** Addresses of the file with no place at the event (not registered, waiting or cancelled). */
  unmatched: string[];
};

/**
 * The webinar platform's attendance: each address (lower-cased, each once)
 * matched to the event's registrations. A registered person is marked as
 * attended; one already attended counts as such; any other address is
 * unmatched (nobody waiting or cancelled is marked).
 */
export async function importAttendance(
  event: Pick<EventRow, "id" | "title">,
  addresses: readonly string[],
  actor: Actor,
  now = new Date(),
): Promise<AttendanceImport> {
  const emails = [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter(Boolean))];
  if (!emails.length) return { marked: 0, already: 0, unmatched: [] };
  return db().transaction(async (tx) => {
    const found = await tx
      .select({ email: eventRegistrations.email, status: eventRegistrations.status })
      .from(eventRegistrations)
      .where(
        and(
          eq(eventRegistrations.event_id, event.id),
          isNull(eventRegistrations.erased_at),
          inArray(eventRegistrations.email, emails),
          inArray(eventRegistrations.status, ["registered", "attended"]),
        ),
      );
    const byEmail = new Map(found.map((r) => [r.email, r.status]));
    const toMark = emails.filter((e) => byEmail.get(e) === "registered");
    const changed = toMark.length
      ? await tx
          .update(eventRegistrations)
          .set({ status: "attended", attended_at: now, updated_at: now })
          .where(
            and(
              eq(eventRegistrations.event_id, event.id),
              isNull(eventRegistrations.erased_at),
              inArray(eventRegistrations.email, toMark),
              eq(eventRegistrations.status, "registered"),
            ),
          )
          .returning()
      : [];
    if (changed.length) await recordAttendance(tx, actor, event, "attended", changed, "import");
    return {
      marked: changed.length,
      already: emails.filter((e) => byEmail.get(e) === "attended").length,
      unmatched: emails.filter((e) => !byEmail.has(e)),
    };
  });
}

/** Attendees whose certificate has not been sent yet (in registration order). */
export async function certificatesDue(eventId: number): Promise<EventRegistrationRow[]> {
  return db()
    .select()
    .from(eventRegistrations)
    .where(
      and(
        eq(eventRegistrations.event_id, eventId),
        eq(eventRegistrations.status, "attended"),
        isNull(eventRegistrations.certificate_sent_at),
        isNull(eventRegistrations.erased_at),
      ),
    )
    .orderBy(asc(eventRegistrations.id));
}

/** How many of the event's attendees were sent their certificate at or after `since` (the progress of a request). */
export async function certificatesSentSince(eventId: number, since: Date): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(eventRegistrations)
    .where(
      and(
        eq(eventRegistrations.event_id, eventId),
        eq(eventRegistrations.status, "attended"),
        gte(eventRegistrations.certificate_sent_at, since),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Claims the given attendees' certificates: each still unsent is marked sent
 * in the statement that claims it, and `each` keeps its e-mail in the same
 * transaction, so a certificate goes once however often the button is
 * pressed (two presses at once: the second claims nobody). The PDFs are made
 * before (`certificatesDue`), so the transaction holds no rendering.
 */
export async function claimCertificates<T>(
  event: Pick<EventRow, "id" | "title">,
  ids: readonly number[],
  actor: Actor,
  each: (tx: Db, registration: EventRegistrationRow) => Promise<T>,
  now = new Date(),
): Promise<T[]> {
  if (!ids.length) return [];
  return db().transaction(async (tx) => {
    const marked = await tx
      .update(eventRegistrations)
      .set({ certificate_sent_at: now })
      .where(
        and(
          eq(eventRegistrations.event_id, event.id),
          inArray(eventRegistrations.id, [...ids]),
          eq(eventRegistrations.status, "attended"),
          isNull(eventRegistrations.certificate_sent_at),
          isNull(eventRegistrations.erased_at),
        ),
      )
      .returning();
    if (!marked.length) return [];
    const out: T[] = [];
    for (const registration of marked) out.push(await each(tx, registration));
    await recordAudit(tx, actor, {
      action: "mail",
      itemType: "event",
      itemId: event.id,
      itemLabel: `${event.title}: certificates of attendance sent to ${marked.length} ${marked.length === 1 ? "person" : "people"}`,
      changes: { certificates: { after: marked.length } },
    });
    return out;
  });
}

/**
 * Erases the personal data of registrants of events that ended more than
 * `days` days ago: name, e-mail, organisation, title and accessibility needs
 * blanked, the cancel link's nonce renewed (every link stops working). The
 * status stays, so the counts remain. One Activity entry per event.
 */
export async function eraseExpiredRegistrants(days: number, actor: Actor, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000);
  return db().transaction(async (tx) => {
    const erased = await tx
      .update(eventRegistrations)
      .set({
        name: "",
        email: "",
        organisation: "",
        job_title: "",
        accessibility_needs: "",
        cancel_token_hash: null,
        cancel_nonce: sql`gen_random_uuid()::text`,
        erased_at: now,
        updated_at: now,
      })
      .where(
        and(
          isNull(eventRegistrations.erased_at),
          inArray(eventRegistrations.event_id, tx.select({ id: events.id }).from(events).where(lt(events.ends_at, before))),
        ),
      )
      .returning({ event_id: eventRegistrations.event_id });
    const byEvent = new Map<number, number>();
    for (const r of erased) byEvent.set(r.event_id, (byEvent.get(r.event_id) ?? 0) + 1);
    if (byEvent.size) {
      const titles = await tx
        .select({ id: events.id, title: events.title })
        .from(events)
        .where(inArray(events.id, [...byEvent.keys()]));
      for (const e of titles)
        await recordAudit(tx, actor, {
          action: "purge",
          itemType: "event",
          itemId: e.id,
          itemLabel: `${e.title}: personal data of ${byEvent.get(e.id)} registrants erased (${days} days after the event)`,
          changes: { registrantsErased: { after: byEvent.get(e.id) } },
        });
    }
    return erased.length;
  });
}

/** Demo content: registrations written as they are (the seed's past event), whatever the event's state. */
export async function insertDemoRegistrations(
  eventId: number,
  rows: readonly { name: string; email: string; organisation: string; job_title?: string; status: RegistrationStatus; at: Date }[],
): Promise<void> {
  if (!rows.length) return;
  await db()
    .insert(eventRegistrations)
    .values(
      rows.map((r) => ({
        event_id: eventId,
        status: r.status,
        name: r.name,
        email: r.email.toLowerCase(),
        organisation: r.organisation,
        job_title: r.job_title ?? "",
        created_at: r.at,
        updated_at: r.at,
        attended_at: r.status === "attended" ? r.at : null,
        cancelled_at: r.status === "cancelled" ? r.at : null,
      })),
    );
}

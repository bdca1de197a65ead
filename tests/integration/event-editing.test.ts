/**
 * The dashboard's events (issue 45) through the routes, as the server calls
 * them (the dashboard guard first): an editor adds, previews, schedules,
 * moves, cancels and deletes an event; bad input gets words and keeps what
 * was typed; a move sends registrants the new time with the same UID and a
 * higher SEQUENCE; a cancellation sends METHOD:CANCEL; History and the Trash
 * know events; registrants' data stay with the roles that may see them.
 */
import ICAL from "ical.js";
import { and, desc, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "~/.server/db/audit";
import { db } from "~/.server/db/client";
import { getEventById, publishDueEvents } from "~/.server/db/event-editing";
import { listRegistrations, registerForEvent } from "~/.server/db/events";
import { cancelUrl } from "~/.server/events/messages";
import { auditLog, events, mailOutbox, redirects as redirectsTable, revisions } from "~/.server/db/schema";
import { listTrash, restoreFromTrash } from "~/.server/db/trash";
import { toFirmLocalInput } from "~/lib/firm-time";
import * as list from "~/routes/admin/events";
import * as create from "~/routes/admin/event-new";
import * as edit from "~/routes/admin/event-edit";
import * as history from "~/routes/admin/history";
import * as eventPage from "~/routes/public/event";
import * as eventCancel from "~/routes/public/event-cancel";
import { callRoute, testContext } from "../support/route-call";
import { signedIn } from "../support/staff-session";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const context = testContext("192.0.2.20");
const DAY = 86_400_000;
let editor = "";

beforeAll(async () => {
  editor = await signedIn("events-editor@example.com", "editor");
});

const post = (path: string, fields: Record<string, string | string[]>, cookie = editor) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return new Request(`${ORIGIN}${path}`, { method: "POST", body, headers: { cookie, origin: ORIGIN } });
};
const get = (path: string, cookie = editor) => new Request(`${ORIGIN}${path}`, { headers: { cookie } });

function form(title: string, startsIn: number, extra: Record<string, string | string[]> = {}) {
  const starts = new Date(Date.now() + startsIn);
  return {
    intent: "save",
    title,
    summary: "Claims teams and coverage counsel.",
    copy: "What changed this year.\n\nAnd what to do about it.",
    format: "in-person",
    practice_area: "insurance",
    starts_at: toFirmLocalInput(starts),
    ends_at: toFirmLocalInput(new Date(starts.getTime() + 2 * 3_600_000)),
    venue_name: "Harrow Kline LLP",
    venue_street: "100 King Street West",
    venue_city: "Toronto",
    venue_region: "ON",
    venue_postal_code: "M5X 1A9",
    capacity: "2",
    cpd_substantive: "1.5",
    cpd_professionalism: "0.5",
    accreditation_number: "",
    accreditation_date: "",
    guest_name: "Dana Guest",
    guest_organisation: "Northern Mutual",
    status: "published",
    ...extra,
  };
}

async function addEventByForm(title: string, startsIn: number, extra: Record<string, string | string[]> = {}) {
  const res = await callRoute(create.action, post("/dashboard/events/new", form(title, startsIn, extra)), {}, context);
  expect(res.status, JSON.stringify(res.data)).toBe(302);
  const id = Number(/\/dashboard\/events\/(\d+)\/edit/.exec(res.location ?? "")?.[1]);
  return (await getEventById(id))!;
}

const person = (i: number) => ({
  name: `Person ${i}`,
  email: `p${i}@example.com`,
  organisation: "Insurer",
  job_title: "",
  accessibility_needs: "",
});

describe("the dashboard's events", () => {
  it("an editor adds an event from the form: it is listed, public, with its guest speaker, CPD minutes and an audit entry", async () => {
    const event = await addEventByForm("Coverage in 2027", 10 * DAY);
    expect(event).toMatchObject({ status: "published", cpd_substantive_minutes: 90, cpd_professionalism_minutes: 30, capacity: 2 });
    expect(event.copy).toBe("<p>What changed this year.</p><p>And what to do about it.</p>");
    const screen = await callRoute(list.loader, get("/dashboard/events"), {}, context);
    expect(JSON.stringify(screen.data.items)).toContain("Coverage in 2027");
    const page = (await eventPage.loader({
      params: { slug: event.slug },
      request: new Request(`${ORIGIN}/event/${event.slug}`),
    } as never)) as {
      event: { speakers: { name: string; organisation: string }[] };
    };
    expect(page.event.speakers).toEqual([expect.objectContaining({ name: "Dana Guest", organisation: "Northern Mutual" })]);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.item_type, "event"), eq(auditLog.item_id, String(event.id))));
    expect(entry).toMatchObject({ action: "publish", actor_label: "events-editor@example.com" });
  });

  it("bad input: 400 with a message for each field in words, nothing written, everything typed kept", async () => {
    const before = await db().select().from(events);
    // Fields wrong on their own first…
    const typed = form("Places in words", 5 * DAY, { capacity: "lots", cpd_substantive: "1.1", format: "" });
    const res = await callRoute(create.action, post("/dashboard/events/new", typed), {}, context);
    expect(res.status).toBe(400);
    const errors = res.data.errors as Record<string, string>;
    expect(errors.capacity).toBe("Places must be a whole number (or empty for no limit).");
    expect(errors.cpd_substantive).toBe("Substantive hours must be in quarter hours (0.25, 0.5, 0.75…).");
    expect(errors.format).toBe("Choose the format: in person, webinar or hybrid.");
    expect((res.data.status as { text: string }).text).toBeTruthy();
    expect(res.data.values).toMatchObject({
      title: "Places in words",
      capacity: "lots",
      guests: [{ name: "Dana Guest", organisation: "Northern Mutual" }],
    });
    // …then the fields that go together.
    const crossed = form("Ends before it starts", 5 * DAY, {
      ends_at: toFirmLocalInput(new Date(Date.now() + 4 * DAY)),
      venue_street: "",
      accreditation_number: "PRO-1",
    });
    const res2 = await callRoute(create.action, post("/dashboard/events/new", crossed), {}, context);
    expect(res2.status).toBe(400);
    const errors2 = res2.data.errors as Record<string, string>;
    expect(errors2.ends_at).toBe("End must be after the start.");
    expect(errors2.venue_street).toBe("Street address is required for an event held in person.");
    expect(errors2.accreditation_date).toBe("Record both the LSO's accreditation number and its date, or neither.");
    expect(await db().select().from(events)).toHaveLength(before.length);
  });

  it("a draft is not public; the staff preview shows it, never cached; scheduled publishing makes it public", async () => {
    const draft = await addEventByForm("Draft seminar", 20 * DAY, { status: "draft" });
    const publicPage = await callRoute(eventPage.loader, new Request(`${ORIGIN}/event/${draft.slug}`), { slug: draft.slug });
    expect(publicPage.status).toBe(404);
    const preview = await callRoute(eventPage.loader, get(`/preview/event/${draft.slug}`), { slug: draft.slug });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("Cache-Control")).toBe("private, no-store");
    expect(preview.data).toMatchObject({ preview: "Preview — not published", event: { open: false } });
    // Someone signed out gets the sign-in page, not the draft.
    expect((await callRoute(eventPage.loader, new Request(`${ORIGIN}/preview/event/${draft.slug}`), { slug: draft.slug })).status).toBe(
      302,
    );

    const scheduled = await addEventByForm("Scheduled seminar", 20 * DAY, {
      status: "scheduled",
      publish_at: toFirmLocalInput(new Date(Date.now() + 3_600_000)),
    });
    expect(scheduled.status).toBe("scheduled");
    await publishDueEvents(systemActor("test"), new Date(Date.now() + 2 * 3_600_000));
    expect((await getEventById(scheduled.id))?.status).toBe("published");
  });

  it("moving an event tells registrants the new time: same UID, higher SEQUENCE, previous start kept, reminders again; the confirmation's cancel link still works", async () => {
    const event = await addEventByForm("Moving seminar", 3 * DAY);
    const first = await registerForEvent(event.id, person(1));
    await registerForEvent(event.id, person(2));
    await registerForEvent(event.id, person(3)); // waiting (2 places)
    const later = new Date(event.starts_at.getTime() + 7 * DAY);
    const screen = await callRoute(edit.loader, get(`/dashboard/events/${event.id}/edit`), { id: String(event.id) }, context);
    const values = screen.data.values as Record<string, unknown>;
    const res = await callRoute(
      edit.action,
      post(`/dashboard/events/${event.id}/edit`, {
        ...form("Moving seminar", 3 * DAY),
        starts_at: toFirmLocalInput(later),
        ends_at: toFirmLocalInput(new Date(later.getTime() + 2 * 3_600_000)),
        version: String((screen.data.event as { version: number }).version),
        speakers: values.speakers as string[],
      }),
      { id: String(event.id) },
      context,
    );
    expect(res.status, JSON.stringify(res.data)).toBe(302);
    const moved = (await getEventById(event.id))!;
    expect(moved).toMatchObject({ event_status: "rescheduled", sequence: event.sequence + 1 });
    expect(moved.previous_starts_at?.getTime()).toBe(event.starts_at.getTime());
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, "event-moved")).orderBy(mailOutbox.id);
    expect(mails.map((m) => m.to_address).sort()).toEqual(["p1@example.com", "p2@example.com", "p3@example.com"]);
    const toPlace = mails.find((m) => m.to_address === "p1@example.com")!;
    expect(toPlace.subject).toBe("New time: Moving seminar");
    const ics = (toPlace.attachments as { content: string }[])[0].content;
    const vevent = new ICAL.Component(ICAL.parse(ics) as unknown[]).getFirstSubcomponent("vevent")!;
    expect(vevent.getFirstPropertyValue("uid")).toBe(`event-${event.id}@localhost`);
    expect(Number(vevent.getFirstPropertyValue("sequence"))).toBe(moved.sequence);
    expect((vevent.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().getTime()).toBe(later.getTime());
    // The waiting person is told too, without a calendar file (no place, no entry to update).
    const toWaiting = mails.find((m) => m.to_address === "p3@example.com")!;
    expect(toWaiting.attachments).toEqual([]);
    expect(toWaiting.text_body).toContain("You are still on the waiting list.");

    // Each carries the registration's cancel link, for those who cannot make the new time.
    const links = mails.map((m) => /Cancel my registration: (\S+)/.exec(m.text_body)?.[1] ?? "");
    for (const link of links) expect(link).toMatch(new RegExp(`^${ORIGIN}/event/cancel/\\d+\\.[\\w-]{43}$`));
    expect(new Set(links).size).toBe(3);
    expect(toPlace.html_body).toContain(`href="${links[mails.indexOf(toPlace)]}"`);
    // The same link as in the confirmation e-mail, which keeps working: the move killed no link already sent.
    expect(first.outcome).toBe("registered");
    const confirmationToken = (first as { token: string }).token;
    expect(links[mails.indexOf(toPlace)]).toBe(cancelUrl(confirmationToken));

    // The confirmation's link opened, it asks; confirmed, it cancels, and the first person waiting takes the place.
    const link = cancelUrl(confirmationToken);
    const token = confirmationToken;
    const shown = (await eventCancel.loader({ params: { token }, request: new Request(link) } as never)) as { data: { outcome: string } };
    expect(shown.data.outcome).toBe("ready");
    const done = (await eventCancel.action({ params: { token }, request: new Request(link, { method: "POST", body: "" }) } as never)) as {
      data: { outcome: string };
    };
    expect(done.data.outcome).toBe("cancelled");
    const statuses = Object.fromEntries((await listRegistrations(event.id)).map((r) => [r.email, r.status]));
    expect(statuses).toEqual({ "p1@example.com": "cancelled", "p2@example.com": "registered", "p3@example.com": "registered" });
  });

  it("more places go to those waiting, first come first served, each told by e-mail", async () => {
    const event = await addEventByForm("Growing seminar", 6 * DAY);
    for (const i of [11, 12, 13, 14]) await registerForEvent(event.id, person(i)); // 2 places: 13 and 14 wait
    const screen = await callRoute(edit.loader, get(`/dashboard/events/${event.id}/edit`), { id: String(event.id) }, context);
    const res = await callRoute(
      edit.action,
      post(`/dashboard/events/${event.id}/edit`, {
        ...form("Growing seminar", 6 * DAY),
        starts_at: toFirmLocalInput(event.starts_at),
        ends_at: toFirmLocalInput(event.ends_at),
        capacity: "3",
        version: String((screen.data.event as { version: number }).version),
      }),
      { id: String(event.id) },
      context,
    );
    expect(res.status).toBe(302);
    const statuses = Object.fromEntries((await listRegistrations(event.id)).map((r) => [r.email, r.status]));
    expect(statuses).toEqual({
      "p11@example.com": "registered",
      "p12@example.com": "registered",
      "p13@example.com": "registered",
      "p14@example.com": "waiting",
    });
    const told = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, "event-promoted"), like(mailOutbox.subject, "%: Growing seminar")));
    expect(told.map((m) => [m.to_address, m.subject])).toEqual([["p13@example.com", "A place is now yours: Growing seminar"]]);
    // With the cancel link, which opens the Cancel button.
    const link = /Cancel my registration: (\S+)/.exec(told[0].text_body)?.[1] ?? "";
    const shown = (await eventCancel.loader({ params: { token: link.split("/").pop() }, request: new Request(link) } as never)) as {
      data: { outcome: string };
    };
    expect(shown.data.outcome).toBe("ready");
  });

  it("cancelling tells everyone registered or waiting with METHOD:CANCEL; the page says so; delete waits for it", async () => {
    const event = await addEventByForm("Cancelled seminar", 4 * DAY);
    await registerForEvent(event.id, person(4));
    // Delete first: refused in words while people are registered.
    const refused = await callRoute(list.action, post("/dashboard/events", { intent: "delete", id: String(event.id) }), {}, context);
    expect(refused.status).toBe(409);
    expect((refused.data.status as { text: string }).text).toMatch(/has 1 person registered or waiting\. Cancel the event first/);

    const asked = await callRoute(edit.loader, get(`/dashboard/events/${event.id}/edit?cancel=ask`), { id: String(event.id) }, context);
    expect(asked.data).toMatchObject({ cancelling: true, toTell: 1 });
    const res = await callRoute(
      edit.action,
      post(`/dashboard/events/${event.id}/edit`, { intent: "cancel-event" }),
      { id: String(event.id) },
      context,
    );
    expect(res.status).toBe(302);
    const cancelled = (await getEventById(event.id))!;
    expect(cancelled).toMatchObject({ event_status: "cancelled", sequence: event.sequence + 1 });
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, "event-cancelled"), eq(mailOutbox.to_address, "p4@example.com")));
    expect(mail.subject).toBe("Cancelled: Cancelled seminar");
    const ics = (mail.attachments as { content: string }[])[0].content;
    expect(ics).toContain("METHOD:CANCEL");
    expect(ics).toContain("STATUS:CANCELLED");
    // A second cancel changes nothing and says why.
    const again = await callRoute(
      edit.action,
      post(`/dashboard/events/${event.id}/edit`, { intent: "cancel-event" }),
      { id: String(event.id) },
      context,
    );
    expect(again.status).toBe(409);

    const deleted = await callRoute(list.action, post("/dashboard/events", { intent: "delete", id: String(event.id) }), {}, context);
    expect(deleted.status).toBe(302);
    expect((await listTrash()).some((i) => i.kind === "event" && i.id === event.id)).toBe(true);
    expect(await restoreFromTrash("event", event.id, systemActor("test"))).toBe("Cancelled seminar");
    expect((await listRegistrations(event.id)).map((r) => r.status)).toEqual(["registered"]);
  });

  it("History lists an event's versions and restores its texts", async () => {
    const event = await addEventByForm("Versioned seminar", 30 * DAY, { capacity: "" });
    const screen = await callRoute(edit.loader, get(`/dashboard/events/${event.id}/edit`), { id: String(event.id) }, context);
    const version = (screen.data.event as { version: number }).version;
    const saved = await callRoute(
      edit.action,
      post(`/dashboard/events/${event.id}/edit`, {
        ...form("Versioned seminar, renamed", 30 * DAY, { capacity: "" }),
        version: String(version),
        starts_at: toFirmLocalInput(event.starts_at),
        ends_at: toFirmLocalInput(event.ends_at),
      }),
      { id: String(event.id) },
      context,
    );
    expect(saved.status).toBe(302);
    // Renamed while public: the old address answers 301 to the new one, in one hop (the redirects engine).
    const renamed = (await getEventById(event.id))!;
    expect(renamed.slug).not.toBe(event.slug);
    const [rule] = await db()
      .select()
      .from(redirectsTable)
      .where(eq(redirectsTable.source, `/event/${event.slug}`.toLowerCase()));
    expect(rule).toMatchObject({ target: `/event/${renamed.slug}`, status: 301, origin: "slug" });
    // Saving over the version the form was opened on again: a conflict, nothing written.
    const stale = await callRoute(
      edit.action,
      post(`/dashboard/events/${event.id}/edit`, { ...form("Stale title", 30 * DAY), version: String(version) }),
      { id: String(event.id) },
      context,
    );
    expect(stale.status).toBe(409);
    const revs = await db()
      .select()
      .from(revisions)
      .where(and(eq(revisions.item_type, "event"), eq(revisions.item_id, event.id)))
      .orderBy(desc(revisions.id));
    expect(revs).toHaveLength(2);
    const page = await callRoute(
      history.loader,
      get(`/dashboard/history/event/${event.id}`),
      { kind: "event", id: String(event.id) },
      context,
    );
    expect(JSON.stringify(page.data.changes)).toContain("renamed");
    const restored = await callRoute(
      history.action,
      post(`/dashboard/history/event/${event.id}`, { intent: "restore", revision: String(revs[1].id) }),
      { kind: "event", id: String(event.id) },
      context,
    );
    expect(restored.status).toBe(302);
    expect((await getEventById(event.id))?.title).toBe("Versioned seminar");
  });

  it("the screens need a session and offer each role its links", async () => {
    const anonymous = await callRoute(list.loader, new Request(`${ORIGIN}/dashboard/events`), {}, context);
    expect(anonymous.status).toBe(302);
    // The edit screen offers what each role may open: an editor History but not the registrants; a coordinator the reverse.
    const [any] = await db().select().from(events).limit(1);
    const asEditor = await callRoute(edit.loader, get(`/dashboard/events/${any.id}/edit`), { id: String(any.id) }, context);
    expect(asEditor.data).toMatchObject({ history: true, registrants: false });
    const coordinator = await signedIn("events-coordinator@example.com", "events");
    const asCoordinator = await callRoute(
      edit.loader,
      get(`/dashboard/events/${any.id}/edit`, coordinator),
      { id: String(any.id) },
      context,
    );
    expect(asCoordinator.data).toMatchObject({ history: false, registrants: true });
  });
});

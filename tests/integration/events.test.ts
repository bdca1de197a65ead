/**
 * Events (issue 45) on a real database (PGlite, or PostgreSQL with
 * `npm run test:pg`): capacity held under 50 registrations at the same
 * moment, the same answer for an address already registered, cancelling
 * promotes the first person waiting, and reminders claimed once each.
 */
import { describe, expect, it } from "vitest";
import { systemActor } from "~/.server/db/audit";
import {
  cancelRegistration,
  claimDueReminders,
  createEvent,
  listEventPage,
  listRegistrations,
  registerForEvent,
} from "~/.server/db/events";
import { cancelEvent, trashEvent } from "~/.server/db/event-editing";
import { db } from "~/.server/db/client";
import { eventRegistrations, mailOutbox } from "~/.server/db/schema";
import { sendEventReminders } from "~/.server/jobs/jobs";
import { eq, like } from "drizzle-orm";
import { setUpTestDatabase } from "../support/database";
import { eventInput } from "../support/events";

setUpTestDatabase();
const ACTOR = systemActor("events test");
const HOUR = 3_600_000;

const person = (i: number) => ({
  name: `Person ${i}`,
  email: `person${i}@example.com`,
  organisation: "Insurer",
  job_title: "",
  accessibility_needs: "",
});

describe("capacity and the waiting list", () => {
  it("50 registrations at the same moment for 10 places: 10 registered, 40 waiting", async () => {
    const event = await createEvent(eventInput("Fifty for ten", 48 * HOUR), ACTOR);
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => registerForEvent(event.id, person(i))));
    expect(outcomes.filter((o) => o.outcome === "registered")).toHaveLength(10);
    expect(outcomes.filter((o) => o.outcome === "waiting")).toHaveLength(40);
    const rows = await listRegistrations(event.id);
    expect(rows.filter((r) => r.status === "registered")).toHaveLength(10);
    expect(rows.filter((r) => r.status === "waiting")).toHaveLength(40);
  });

  it("an address already registered changes nothing; cancelling promotes the first person waiting, once", async () => {
    const event = await createEvent(eventInput("Two places", 48 * HOUR, { capacity: 2 }), ACTOR);
    const first = await registerForEvent(event.id, person(1));
    await registerForEvent(event.id, person(2));
    const third = await registerForEvent(event.id, person(3));
    await registerForEvent(event.id, person(4));
    expect(third.outcome).toBe("waiting");
    const again = await registerForEvent(event.id, { ...person(1), email: "PERSON1@example.com" });
    expect(again.outcome).toBe("already");
    expect(await listRegistrations(event.id)).toHaveLength(4);

    if (first.outcome !== "registered") throw new Error("expected a place");
    const cancelled = await cancelRegistration(first.token);
    expect(cancelled?.registration.status).toBe("cancelled");
    expect(cancelled?.promoted?.email).toBe("person3@example.com");
    // The link works once.
    expect(await cancelRegistration(first.token)).toBeNull();
    const rows = await listRegistrations(event.id);
    expect(rows.map((r) => [r.email, r.status])).toEqual([
      ["person1@example.com", "cancelled"],
      ["person2@example.com", "registered"],
      ["person3@example.com", "registered"],
      ["person4@example.com", "waiting"],
    ]);
  });

  it("answers with the registration as stored (dates as dates, ids as numbers), for a new address and one already there", async () => {
    const event = await createEvent(eventInput("As stored", 48 * HOUR, { capacity: 1 }), ACTOR);
    const stored = async (id: number) => (await db().select().from(eventRegistrations).where(eq(eventRegistrations.id, id)))[0];
    const first = await registerForEvent(event.id, { ...person(1), job_title: "Claims Manager", accessibility_needs: "Captions" });
    if (first.outcome !== "registered") throw new Error("expected a place");
    expect(first.registration).toEqual(await stored(first.registration.id));
    expect(first.registration.created_at).toBeInstanceOf(Date);
    expect(typeof first.registration.id).toBe("number");
    const waiting = await registerForEvent(event.id, person(2));
    if (waiting.outcome !== "waiting") throw new Error("expected the waiting list");
    expect(waiting.registration).toEqual(await stored(waiting.registration.id));
    const again = await registerForEvent(event.id, person(1));
    expect(again.outcome === "already" && again.registration).toEqual(await stored(first.registration.id));
  });

  it("an address that cancelled registers again: its one row taken up, with a new cancel link, a place or the waiting list by the count", async () => {
    const event = await createEvent(eventInput("Come back", 48 * HOUR, { capacity: 1 }), ACTOR);
    const first = await registerForEvent(event.id, person(1));
    if (first.outcome !== "registered") throw new Error("expected a place");
    await registerForEvent(event.id, person(2)); // waiting
    await cancelRegistration(first.token); // person 2 promoted
    const back = await registerForEvent(event.id, { ...person(1), name: "Person One" });
    expect(back.outcome).toBe("waiting");
    if (back.outcome !== "waiting") throw new Error("expected the waiting list");
    expect(back.token).not.toBe(first.token);
    expect(back.registration.id).toBe(first.registration.id);
    expect(back.registration.cancelled_at).toBeNull();
    expect(await cancelRegistration(first.token)).toBeNull();
    const rows = await listRegistrations(event.id);
    expect(rows.map((r) => [r.email, r.name, r.status])).toEqual([
      ["person1@example.com", "Person One", "waiting"],
      ["person2@example.com", "Person 2", "registered"],
    ]);
    // Its new link cancels it.
    expect((await cancelRegistration(back.token))?.registration.status).toBe("cancelled");
  });

  it("registration closes at its closing time (or the start); a draft, a cancelled event and one in the Trash take none, and nothing is written", async () => {
    const closed = await createEvent(eventInput("Closed", 48 * HOUR, { registration_closes_at: new Date(Date.now() - 1000) }), ACTOR);
    const started = await createEvent(eventInput("Started", -HOUR), ACTOR);
    const draft = await createEvent(eventInput("Draft", 48 * HOUR, { status: "draft", published_at: null }), ACTOR);
    const called = await createEvent(eventInput("Called off", 48 * HOUR), ACTOR);
    await cancelEvent(called.id, ACTOR);
    const binned = await createEvent(eventInput("Binned", 48 * HOUR), ACTOR);
    await trashEvent(binned.id, ACTOR);
    for (const event of [closed, started, draft, called, binned]) {
      expect((await registerForEvent(event.id, person(1))).outcome, event.title).toBe("closed");
      expect(await listRegistrations(event.id), event.title).toEqual([]);
    }
    // Open until the closing time: the same address then takes a place.
    const open = await createEvent(eventInput("Open", 48 * HOUR, { registration_closes_at: new Date(Date.now() + HOUR) }), ACTOR);
    expect((await registerForEvent(open.id, person(1))).outcome).toBe("registered");
  });
});

describe("reminders", () => {
  it("each registered person is claimed once for the 24-hour and once for the 1-hour reminder", async () => {
    const event = await createEvent(eventInput("Soon", 30 * 60_000, { capacity: 1 }), ACTOR);
    await registerForEvent(event.id, person(10));
    await registerForEvent(event.id, person(11)); // waiting: no reminder
    const claim = (kind: "24h" | "1h") => claimDueReminders(kind, (_tx, item) => Promise.resolve(item));
    const [day, again, hour] = [await claim("24h"), await claim("24h"), await claim("1h")];
    expect(day.filter((r) => r.event.id === event.id).map((r) => r.registration.email)).toEqual(["person10@example.com"]);
    expect(again.filter((r) => r.event.id === event.id)).toEqual([]);
    expect(hour.filter((r) => r.event.id === event.id).map((r) => r.registration.email)).toEqual(["person10@example.com"]);
    expect((await claim("1h")).filter((r) => r.event.id === event.id)).toEqual([]);
  });
});

describe("the reminders job", () => {
  it("e-mails each registered person once 24 hours before and once 1 hour before, however often it runs", async () => {
    const event = await createEvent(eventInput("Reminded seminar", 23 * HOUR, { capacity: 5 }), ACTOR);
    await registerForEvent(event.id, person(20));
    const now = new Date();
    await sendEventReminders(now);
    await sendEventReminders(now);
    const reminders = () => db().select().from(mailOutbox).where(like(mailOutbox.subject, "%Reminded seminar"));
    expect((await reminders()).map((m) => [m.to_address, m.subject])).toEqual([["person20@example.com", "Tomorrow: Reminded seminar"]]);
    // 22 hours later: the 1-hour reminder, once.
    const later = new Date(now.getTime() + 22.5 * HOUR);
    await sendEventReminders(later);
    await sendEventReminders(later);
    const all = await reminders();
    expect(all.map((m) => m.subject).sort()).toEqual(["Starting in one hour: Reminded seminar", "Tomorrow: Reminded seminar"]);
    expect(all.every((m) => m.attachments.length === 1)).toBe(true);
  });
});

describe("the public list", () => {
  it("upcoming soonest first, then past latest first; filtered by area and format", async () => {
    const now = new Date();
    const later = await createEvent(eventInput("Later webinar", 30 * 24 * HOUR, { format: "webinar", practice_area: "cyber" }), ACTOR);
    const sooner = await createEvent(eventInput("Sooner webinar", 10 * 24 * HOUR, { format: "webinar", practice_area: "cyber" }), ACTOR);
    const old = await createEvent(eventInput("Old webinar", -60 * 24 * HOUR, { format: "webinar", practice_area: "cyber" }), ACTOR);
    const older = await createEvent(eventInput("Older webinar", -90 * 24 * HOUR, { format: "webinar", practice_area: "cyber" }), ACTOR);
    const page = await listEventPage({ filters: { area: "cyber", format: "webinar" }, page: 1, now });
    expect(page.items.map((e) => e.id)).toEqual([sooner.id, later.id, old.id, older.id]);
    expect(page.items.map((e) => e.past)).toEqual([false, false, true, true]);
    const none = await listEventPage({ filters: { area: "cyber", format: "in-person" }, page: 1, now });
    expect(none.items).toEqual([]);
  });
});

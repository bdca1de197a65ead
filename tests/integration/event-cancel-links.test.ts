/**
 * Event registrations' cancel links (issue 45) on a real database (PGlite,
 * or PostgreSQL with `npm run test:pg`), through the routes as the server
 * calls them: every e-mail to a registrant (confirmation, waiting list,
 * promotion, both reminders) carries the registration's link, and every
 * link sent keeps working until the registration is cancelled, erased or
 * the event is over; a link from a cancelled registration never cancels the
 * same address's new registration; a forged or altered link is refused with
 * the same words; a link sent before links were signed still works.
 * (The move e-mail: tests/integration/event-editing.test.ts.)
 */
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemActor } from "~/.server/db/audit";
import { db } from "~/.server/db/client";
import { eraseExpiredRegistrants } from "~/.server/db/event-registrations";
import { createEvent, hashToken, listRegistrations, type EventInput } from "~/.server/db/events";
import { eventRegistrations, events, mailOutbox } from "~/.server/db/schema";
import { sendEventReminders } from "~/.server/jobs/jobs";
import { mailSettled } from "~/.server/mail/mail";
import { issueFormToken, MIN_FILL_SECONDS } from "~/.server/public-forms/spam-defence";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { REGISTRATION_MSG } from "~/lib/forms/registration";
import * as eventPage from "~/routes/public/event";
import * as eventCancel from "~/routes/public/event-cancel";
import { testContext } from "../support/route-call";
import { setUpTestDatabase } from "../support/database";
import { eventInput } from "../support/events";

setUpTestDatabase();
const ACTOR = systemActor("cancel links test");
const ORIGIN = "http://localhost:3000";
const HOUR = 3_600_000;

/** One place unless said otherwise. */
const input = (title: string, startsIn: number, extra: Partial<EventInput> = {}) => eventInput(title, startsIn, { capacity: 1, ...extra });

let ipCount = 0;
/** The registration form sent as a browser sends it (a fresh address each time: the per-address limit is not under test). */
async function register(slug: string, name: string, email: string) {
  const body = new URLSearchParams({
    name,
    email,
    organisation: "Northern Insurer",
    job_title: "",
    accessibility_needs: "",
    [HONEYPOT_FIELD]: "",
    [TOKEN_FIELD]: issueFormToken(Date.now() - (MIN_FILL_SECONDS + 1) * 1000),
  });
  const request = new Request(`${ORIGIN}/event/${slug}`, {
    method: "POST",
    body,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  });
  const result = (await eventPage.action({
    request,
    params: { slug },
    context: testContext(`198.51.100.${++ipCount}`),
  } as never)) as unknown;
  expect(result instanceof Response && result.status).toBe(303);
  await mailSettled();
}

/** The e-mails to an address, newest first. */
const mailTo = (to: string) => db().select().from(mailOutbox).where(eq(mailOutbox.to_address, to)).orderBy(desc(mailOutbox.id));

/** The cancel link of the newest e-mail to `to` with this subject (checked to be in its HTML too). */
async function linkIn(to: string, subject: string): Promise<string> {
  const mail = (await mailTo(to)).find((m) => m.subject === subject);
  expect(mail, `an e-mail "${subject}" to ${to}`).toBeDefined();
  const link = /Cancel my registration: (\S+)/.exec(mail!.text_body)?.[1] ?? "";
  expect(link.startsWith(`${ORIGIN}/event/cancel/`)).toBe(true);
  expect(mail!.html_body).toContain(`href="${link}"`);
  return link;
}

type Answer = { data: { outcome: string; status?: { text: string } }; init: { status?: number } | null };
const tokenOf = (link: string) => link.slice(`${ORIGIN}/event/cancel/`.length);

/** The link opened (GET): what the page says, and its status. */
async function open(link: string) {
  const r = (await eventCancel.loader({ params: { token: tokenOf(link) }, request: new Request(link) } as never)) as unknown as Answer;
  return { outcome: r.data.outcome, status: r.init?.status ?? 200 };
}

/** Cancel my registration pressed (POST). */
async function press(link: string) {
  const r = (await eventCancel.action({
    params: { token: tokenOf(link) },
    request: new Request(link, { method: "POST", body: new URLSearchParams({ cancel: "yes" }) }),
  } as never)) as unknown as Answer;
  await mailSettled();
  return { outcome: r.data.outcome, status: r.init?.status ?? 200, text: r.data.status?.text };
}

const statuses = async (eventId: number) => Object.fromEntries((await listRegistrations(eventId)).map((r) => [r.email, r.status]));

describe("every e-mail carries a working cancel link", () => {
  it("confirmation, waiting list, promotion and both reminders: the same link, which cancels until it is used", async () => {
    const event = await createEvent(input("Linked seminar", 23 * HOUR), ACTOR);
    await register(event.slug, "Ada Place", "ada@example.com");
    await register(event.slug, "Ben Waits", "ben@example.com");
    const confirmed = await linkIn("ada@example.com", "Registration confirmed: Linked seminar");
    const waiting = await linkIn("ben@example.com", "Waiting list: Linked seminar");
    expect(confirmed).not.toBe(waiting);

    // The 24-hour reminder to the person with a place carries the confirmation's link.
    await sendEventReminders(new Date());
    expect(await linkIn("ada@example.com", "Tomorrow: Linked seminar")).toBe(confirmed);
    expect(await open(waiting)).toEqual({ outcome: "ready", status: 200 });

    // Ada follows her confirmation's link: cancelled, and Ben is given the place, told with the same link as before.
    expect(await open(confirmed)).toEqual({ outcome: "ready", status: 200 });
    expect(await press(confirmed)).toEqual({ outcome: "cancelled", status: 200, text: REGISTRATION_MSG.cancelled });
    expect(await statuses(event.id)).toEqual({ "ada@example.com": "cancelled", "ben@example.com": "registered" });
    const promoted = await linkIn("ben@example.com", "A place is now yours: Linked seminar");
    expect(promoted).toBe(waiting);
    // A link already used says so when opened, and cancels nothing more when pressed.
    expect(await open(confirmed)).toEqual({ outcome: "cancelled", status: 200 });
    expect(await press(confirmed)).toEqual({ outcome: "invalid", status: 404, text: REGISTRATION_MSG.cancelMissing });

    // Ben's reminders (both due by now) carry his link; the one-hour reminder's link cancels.
    await sendEventReminders(new Date(Date.now() + 22.5 * HOUR));
    expect(await linkIn("ben@example.com", "Tomorrow: Linked seminar")).toBe(waiting);
    const lastReminder = await linkIn("ben@example.com", "Starting in one hour: Linked seminar");
    expect(lastReminder).toBe(waiting);
    expect(await press(lastReminder)).toEqual({ outcome: "cancelled", status: 200, text: REGISTRATION_MSG.cancelled });
    expect(await statuses(event.id)).toEqual({ "ada@example.com": "cancelled", "ben@example.com": "cancelled" });
  });

  it("an event's cancellation e-mail carries no cancel link", async () => {
    // (The event's own cancellation is sent by the dashboard: event-editing.test.ts; here, that its message has no link.)
    const { eventMail } = await import("~/.server/events/messages");
    const event = await createEvent(input("Called off", 48 * HOUR), ACTOR);
    const message = eventMail("cancelled", event, { id: 1, cancel_nonce: "n", name: "A", email: "a@example.com", status: "registered" });
    expect(message.text).not.toContain("/event/cancel/");
    expect(message.html).not.toContain("/event/cancel/");
  });
});

describe("a link only ever cancels the registration it was sent for", () => {
  it("a link from a cancelled registration does not cancel the same address's new registration", async () => {
    const event = await createEvent(input("Come back seminar", 48 * HOUR, { capacity: 5 }), ACTOR);
    await register(event.slug, "Cleo Twice", "cleo@example.com");
    const first = await linkIn("cleo@example.com", "Registration confirmed: Come back seminar");
    expect((await press(first)).outcome).toBe("cancelled");
    const [{ id: rowId }] = await listRegistrations(event.id);

    // Registered again: the same row taken up again, with a new link.
    await register(event.slug, "Cleo Twice", "cleo@example.com");
    const second = await linkIn("cleo@example.com", "Registration confirmed: Come back seminar");
    expect(second).not.toBe(first);
    expect((await listRegistrations(event.id)).map((r) => [r.id, r.status])).toEqual([[rowId, "registered"]]);

    expect(await open(first)).toEqual({ outcome: "invalid", status: 404 });
    expect(await press(first)).toEqual({ outcome: "invalid", status: 404, text: REGISTRATION_MSG.cancelMissing });
    expect(await statuses(event.id)).toEqual({ "cleo@example.com": "registered" });
    expect(await press(second)).toEqual({ outcome: "cancelled", status: 200, text: REGISTRATION_MSG.cancelled });
  });

  it("a forged or altered link is refused with the same words, and cancels nothing", async () => {
    const event = await createEvent(input("Guarded seminar", 48 * HOUR, { capacity: 5 }), ACTOR);
    await register(event.slug, "Dev One", "dev@example.com");
    await register(event.slug, "Eve Two", "eve@example.com");
    const dev = await linkIn("dev@example.com", "Registration confirmed: Guarded seminar");
    const eve = await linkIn("eve@example.com", "Registration confirmed: Guarded seminar");
    const [devId, devSig] = tokenOf(dev).split(".");
    const [eveId, eveSig] = tokenOf(eve).split(".");
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const forged = [
      `${devId}.${flip(devSig, 0)}`, // one character of the signature changed
      `${devId}.${flip(devSig, devSig.length - 1)}`,
      `${eveId}.${devSig}`, // another registration's id with this signature
      `${devId}.${eveSig}`,
      `${devId}.${devSig}x`, // lengthened
      `${devId}.${devSig.slice(0, -1)}`, // shortened
      `${devId}`,
      `${Number(devId) + 1000}.${devSig}`, // no such registration
      `0${devId}.${devSig}`,
      devSig, // an old-style random token nobody was sent
      "x".repeat(101),
    ];
    for (const token of forged) {
      const link = `${ORIGIN}/event/cancel/${token}`;
      expect(await open(link), token).toEqual({ outcome: "invalid", status: 404 });
      expect(await press(link), token).toEqual({ outcome: "invalid", status: 404, text: REGISTRATION_MSG.cancelMissing });
    }
    expect(await statuses(event.id)).toEqual({ "dev@example.com": "registered", "eve@example.com": "registered" });
  });

  it("an erased registration's link, or one for an event that is over, is refused", async () => {
    const event = await createEvent(input("Ending seminar", 48 * HOUR, { capacity: 5 }), ACTOR);
    await register(event.slug, "Fay Late", "fay@example.com");
    const link = await linkIn("fay@example.com", "Registration confirmed: Ending seminar");
    // The event moved into the past (it is over): the link no longer cancels.
    const ended = new Date(Date.now() - 2 * 86_400_000);
    await db()
      .update(events)
      .set({ starts_at: new Date(ended.getTime() - HOUR), ends_at: ended })
      .where(eq(events.id, event.id));
    expect(await open(link)).toEqual({ outcome: "invalid", status: 404 });
    expect(await press(link)).toEqual({ outcome: "invalid", status: 404, text: REGISTRATION_MSG.cancelMissing });
    expect(await statuses(event.id)).toEqual({ "fay@example.com": "registered" });
    // Erased (the retention job): even were the event not over, the link names nothing.
    await eraseExpiredRegistrants(1, ACTOR);
    await db()
      .update(events)
      .set({ starts_at: new Date(Date.now() + 48 * HOUR), ends_at: new Date(Date.now() + 49 * HOUR) })
      .where(eq(events.id, event.id));
    expect((await listRegistrations(event.id))[0].erased_at).toBeInstanceOf(Date);
    expect(await open(link)).toEqual({ outcome: "invalid", status: 404 });
    expect(await press(link)).toEqual({ outcome: "invalid", status: 404, text: REGISTRATION_MSG.cancelMissing });
  });
});

describe("links sent before links were signed", () => {
  it("still open and cancel (found by their SHA-256); a registration taken up again loses its old link", async () => {
    const event = await createEvent(input("Older links seminar", 48 * HOUR, { capacity: 5 }), ACTOR);
    await register(event.slug, "Gus Early", "gus@example.com");
    const signed = await linkIn("gus@example.com", "Registration confirmed: Older links seminar");
    // As a registration made before the change holds it: the SHA-256 of the random token its e-mail carried.
    const oldToken = "q8Jb3x0S1n2WzY7cVvT4uKp9LmN6oRaE";
    await db()
      .update(eventRegistrations)
      .set({ cancel_token_hash: hashToken(oldToken) })
      .where(eq(eventRegistrations.event_id, event.id));
    const oldLink = `${ORIGIN}/event/cancel/${oldToken}`;
    expect(await open(oldLink)).toEqual({ outcome: "ready", status: 200 });
    expect(await open(signed)).toEqual({ outcome: "ready", status: 200 });
    expect(await press(oldLink)).toEqual({ outcome: "cancelled", status: 200, text: REGISTRATION_MSG.cancelled });
    expect(await statuses(event.id)).toEqual({ "gus@example.com": "cancelled" });

    // Registered again: neither the old link nor the earlier signed one cancels the new registration.
    await register(event.slug, "Gus Early", "gus@example.com");
    const [row] = await db().select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id));
    expect(row.cancel_token_hash).toBeNull();
    for (const link of [oldLink, signed]) {
      expect(await open(link)).toEqual({ outcome: "invalid", status: 404 });
      expect(await press(link)).toEqual({ outcome: "invalid", status: 404, text: REGISTRATION_MSG.cancelMissing });
    }
    expect(await statuses(event.id)).toEqual({ "gus@example.com": "registered" });
  });
});

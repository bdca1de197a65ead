/**
 * Events' public pages (issue 45) on a real database: the calendar file,
 * parsed with another maintained iCalendar library (ical.js), starts at the
 * same instant as the page's JSON-LD, for an event just after daylight
 * saving starts (March) and one just after it ends (November); the page's
 * wording (ET, webinar location, CPD with Professionalism only when
 * accredited, places, the recording's note); the joining link never public;
 * the registration form's one answer, e-mails (calendar file, calendar
 * links, cancel link) and the cancel link's promotion of the first person waiting.
 */
import ICAL from "ical.js";
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemActor } from "~/.server/db/audit";
import { db } from "~/.server/db/client";
import { createEvent, listRegistrations, type EventInput } from "~/.server/db/events";
import { mailOutbox } from "~/.server/db/schema";
import { mailSettled } from "~/.server/mail/mail";
import { issueFormToken, MIN_FILL_SECONDS } from "~/.server/public-forms/spam-defence";
import { parseFirmLocal } from "~/lib/firm-time";
import { FULL_TEXT, RECORDING_NOTE, WEBINAR_LOCATION } from "~/lib/events";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { REGISTRATION_MSG } from "~/lib/forms/registration";
import * as eventPage from "~/routes/public/event";
import * as eventIcs from "~/routes/public/event-ics";
import * as eventCancel from "~/routes/public/event-cancel";
import { loader as sitemap } from "~/routes/seo/sitemap";
import { testContext } from "../support/route-call";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();
const ACTOR = systemActor("events test");
const ORIGIN = "http://localhost:3000";

function at(local: string): Date {
  const r = parseFirmLocal(local, "start");
  if (!r.ok) throw new Error(r.message);
  return r.date;
}

function input(title: string, starts: Date, extra: Partial<EventInput> = {}): EventInput {
  return {
    title,
    summary: `${title}: what it covers.`,
    copy: "<p>The program.</p>",
    status: "published",
    published_at: new Date("2026-01-05T14:00:00Z"),
    starts_at: starts,
    ends_at: new Date(starts.getTime() + 60 * 60_000),
    format: "webinar",
    practice_area: "cyber",
    webinar_url: "https://meet.example.com/secret-room-4471",
    capacity: 100,
    cpd_substantive_minutes: 60,
    cpd_professionalism_minutes: 30,
    ...extra,
  };
}

/** The public page's loader data (a public page answers the plain object; only a preview wraps it with headers). */
type PageData = Exclude<Awaited<ReturnType<typeof eventPage.loader>>, { init: unknown }>;
const load = async (slug: string) =>
  (await eventPage.loader({ params: { slug }, request: new Request(`${ORIGIN}/event/${slug}`) } as never)) as PageData;
const ics = async (slug: string) =>
  await eventIcs.loader({ params: { slug }, request: new Request(`${ORIGIN}/event/${slug}.ics`) } as never);

function parseIcs(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  const event = new ICAL.Event(vevent);
  return { calendar, vevent, event };
}

describe("calendar file and JSON-LD across the daylight-saving changes", () => {
  it.each([
    ["March, just after clocks go forward", "2027-03-15T12:00", "2027-03-15T16:00:00.000Z", "2027-03-15T12:00:00-04:00"],
    ["November, just after clocks go back", "2027-11-08T12:00", "2027-11-08T17:00:00.000Z", "2027-11-08T12:00:00-05:00"],
  ])("%s: the .ics start is the JSON-LD start", async (label, local, utc, withOffset) => {
    const created = await createEvent(input(`Webinar ${label}`, at(local)), ACTOR);
    const page = await load(created.slug);
    const jsonLd = page.jsonLd[0] as Record<string, unknown>;
    expect(jsonLd["@type"]).toBe("Event");
    expect(jsonLd.startDate).toBe(withOffset);
    expect(page.event.time).toBe("12:00 p.m. ET");

    const res = await ics(created.slug);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/calendar/);
    const text = await res.text();
    const { event, vevent } = parseIcs(text);
    expect(event.startDate.toJSDate().toISOString()).toBe(utc);
    expect(event.startDate.toJSDate().getTime()).toBe(Date.parse(jsonLd.startDate as string));
    expect(event.endDate.toJSDate().getTime()).toBe(Date.parse(jsonLd.endDate as string));
    expect(event.uid).toBe(`event-${created.id}@localhost`);
    expect(event.summary).toBe(created.title);
    expect(event.location).toBe(WEBINAR_LOCATION);
    expect(vevent.getFirstPropertyValue("url")).toBe(`${ORIGIN}/event/${created.slug}`);
    expect(vevent.getFirstPropertyValue("dtstamp")).toBeTruthy();
    expect(String(vevent.getFirstPropertyValue("organizer"))).toContain("mailto:");
    // The joining link is for registered attendees only.
    expect(text).not.toContain("secret-room-4471");
    expect(JSON.stringify(page)).not.toContain("secret-room-4471");
    // The same file a second time: the same UID.
    expect(parseIcs(await (await ics(created.slug)).text()).event.uid).toBe(event.uid);
  });

  it("a cancelled event's file says METHOD:CANCEL and STATUS:CANCELLED; a moved one keeps previousStartDate", async () => {
    const cancelled = await createEvent(input("Called off", at("2027-05-04T12:00")), ACTOR);
    await db().execute(`update events set event_status = 'cancelled', sequence = 1 where id = ${cancelled.id}` as never);
    const text = await (await ics(cancelled.slug)).text();
    const { calendar, vevent } = parseIcs(text);
    expect(calendar.getFirstPropertyValue("method")).toBe("CANCEL");
    expect(vevent.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(vevent.getFirstPropertyValue("sequence")).toBe(1);
    expect((await load(cancelled.slug)).jsonLd[0].eventStatus).toBe("https://schema.org/EventCancelled");

    const moved = await createEvent(input("Moved", at("2027-06-08T12:00")), ACTOR);
    await db().execute(
      `update events set event_status = 'rescheduled', previous_starts_at = '2027-06-01T16:00:00Z', sequence = 1 where id = ${moved.id}` as never,
    );
    const ld = (await load(moved.slug)).jsonLd[0];
    expect(ld.eventStatus).toBe("https://schema.org/EventRescheduled");
    expect(ld.previousStartDate).toBe("2027-06-01T12:00:00-04:00");
  });
});

describe("the event page", () => {
  it("CPD: Professionalism hours only once accredited; places; the recording after the event; JSON-LD location and offers", async () => {
    const plain = await createEvent(input("Not accredited", at("2027-04-06T12:00")), ACTOR);
    const page = await load(plain.slug);
    expect(page.event.cpd).toBe("This program is eligible for up to 1 Substantive Hour.");
    expect(page.event.places).toBe("100 places left");
    const ld = page.jsonLd[0] as unknown as {
      eventAttendanceMode: string;
      location: unknown;
      offers: unknown;
      organizer: { name: string };
    };
    expect(ld.eventAttendanceMode).toBe("https://schema.org/OnlineEventAttendanceMode");
    expect(ld.location).toEqual({ "@type": "VirtualLocation", url: `${ORIGIN}/event/${plain.slug}` });
    expect(ld.offers).toMatchObject({ price: 0, availability: "https://schema.org/InStock", validFrom: "2026-01-05T09:00:00-05:00" });
    expect(ld.organizer.name).toBe("Harrow Kline LLP");

    const accredited = await createEvent(
      input("Accredited seminar", at("2027-04-07T08:30"), {
        format: "in-person",
        venue_name: "Harrow Kline LLP",
        venue_street: "100 Wellington Street West",
        venue_city: "Toronto",
        venue_region: "ON",
        venue_postal_code: "M5K 1A1",
        accreditation_number: "CPD-1",
        accreditation_date: "2027-01-10",
        capacity: 0,
      }),
      ACTOR,
    );
    const a = await load(accredited.slug);
    expect(a.event.cpd).toBe("This program is eligible for up to 1 Substantive Hour and 0.5 Professionalism Hours.");
    expect(a.event.time).toBe("8:30 a.m. ET");
    expect(a.event.venue).toBe("Harrow Kline LLP, 100 Wellington Street West, Toronto, ON M5K 1A1");
    expect(a.event.places).toBe(FULL_TEXT);
    const ald = a.jsonLd[0] as unknown as {
      location: { "@type": string; address: { streetAddress: string } };
      offers: { availability: string };
    };
    expect(ald.location["@type"]).toBe("Place");
    expect(ald.location.address.streetAddress).toBe("100 Wellington Street West");
    expect(ald.offers.availability).toBe("https://schema.org/SoldOut");

    const past = await createEvent(
      input("Last year", new Date(Date.now() - 30 * 86_400_000), { recording_url: "https://video.example.com/last-year" }),
      ACTOR,
    );
    const p = await load(past.slug);
    expect(p.event.recording).toBe("https://video.example.com/last-year");
    expect(p.event.open).toBe(false);
    expect(RECORDING_NOTE).toMatch(/6 hours/);

    const res = await sitemap();
    const xml = await res.text();
    expect(xml).toContain(`<loc>${ORIGIN}/event/${plain.slug}</loc>`);
    expect(xml).toContain(`<loc>${ORIGIN}/events</loc>`);
  });

  it("an unknown event is a 404; another spelling of its slug a 301", async () => {
    const created = await createEvent(input("Spelling Matters", at("2027-04-08T12:00")), ACTOR);
    await expect(load("No-Such-Event")).rejects.toMatchObject({ init: { status: 404 } });
    const moved = await load(created.slug.toLowerCase()).catch((r: Response) => r);
    expect((moved as Response).status).toBe(301);
    expect((moved as Response).headers.get("Location")).toBe(`/event/${created.slug}`);
  });
});

type ActionResult = {
  data: { outcome: string; status: { text: string }; errors?: Record<string, string> };
  init: { status?: number } | null;
};

async function register(
  slug: string,
  fields: Record<string, string>,
  ip = "198.51.100.20",
): Promise<{ status: number; location: string | null; cacheControl: string | null; data: ActionResult["data"] }> {
  const body = new URLSearchParams({
    name: "Dana Claims",
    email: "dana@insurer.example",
    organisation: "Northern Insurer",
    job_title: "",
    accessibility_needs: "",
    [HONEYPOT_FIELD]: "",
    [TOKEN_FIELD]: issueFormToken(Date.now() - (MIN_FILL_SECONDS + 1) * 1000),
    ...fields,
  });
  const request = new Request(`${ORIGIN}/event/${slug}`, {
    method: "POST",
    body,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  });
  const result = (await eventPage.action({ request, params: { slug }, context: testContext(ip) } as never)) as unknown as
    ActionResult | Response;
  // The e-mail is made and kept after the answer (sendMailLater).
  await mailSettled();
  if (result instanceof Response) {
    // A valid registration: 303 to the event's page, which says the thanks in place of the form (what the browser shows).
    const location = result.headers.get("Location") ?? "";
    const page = (await eventPage.loader({ params: { slug }, request: new Request(new URL(location, ORIGIN)) } as never)) as PageData;
    const text = page.registered ? REGISTRATION_MSG.sent : "";
    return {
      status: result.status,
      location,
      cacheControl: result.headers.get("Cache-Control"),
      data: { outcome: "sent", status: { text } },
    };
  }
  return { status: result.init?.status ?? 200, location: null, cacheControl: null, data: result.data };
}

const mailTo = (to: string) => db().select().from(mailOutbox).where(eq(mailOutbox.to_address, to)).orderBy(desc(mailOutbox.id));

describe("registration", () => {
  it("one answer whether or not already registered; the e-mail carries the details, the .ics, calendar links and the cancel link; cancelling promotes the first person waiting", async () => {
    const created = await createEvent(input("One place", at("2027-09-14T12:00"), { capacity: 1 }), ACTOR);
    const first = await register(created.slug, {});
    // Post/Redirect/Get: the answer is never stored; the page it leads to is the same for everyone.
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/event/${created.slug}?registration=sent#register`);
    expect(first.cacheControl).toBe("private, no-store");
    expect(first.data.status.text).toBe(REGISTRATION_MSG.sent);
    // Without the parameter the page shows the form, not the thanks.
    expect((await load(created.slug)).registered).toBe(false);
    const again = await register(created.slug, { email: "DANA@insurer.example" });
    expect(again.status).toBe(303);
    expect(again.location).toBe(first.location);
    expect(again.data.status.text).toBe(REGISTRATION_MSG.sent);
    expect(await mailTo("dana@insurer.example")).toHaveLength(1);

    const [mail] = await mailTo("dana@insurer.example");
    expect(mail.subject).toBe(`Registration confirmed: ${created.title}`);
    expect(mail.text_body).toContain("12:00 p.m. ET");
    expect(mail.text_body).toContain("Join the webinar: https://meet.example.com/secret-room-4471");
    expect(mail.text_body).toContain("https://calendar.google.com/calendar/render?action=TEMPLATE");
    expect(mail.text_body).toContain("https://outlook.live.com/calendar/0/deeplink/compose?");
    expect(mail.attachments).toHaveLength(1);
    const attached = parseIcs(mail.attachments[0].content).event;
    expect(attached.uid).toBe(`event-${created.id}@localhost`);
    expect(attached.startDate.toJSDate().toISOString()).toBe("2027-09-14T16:00:00.000Z");
    const cancelLink = /Cancel my registration: (\S+)/.exec(mail.text_body)![1];
    const token = new URL(cancelLink).pathname.split("/").pop()!;

    const waiting = await register(created.slug, { name: "Sam Waits", email: "sam@owner.example" }, "198.51.100.21");
    expect(waiting.data.status.text).toBe(REGISTRATION_MSG.sent);
    const [waitMail] = await mailTo("sam@owner.example");
    expect(waitMail.subject).toBe(`Waiting list: ${created.title}`);
    expect(waitMail.text_body).not.toContain("secret-room-4471");

    // The cancel link: GET only shows the button; POST cancels and promotes.
    const shown = (await eventCancel.loader({ params: { token }, request: new Request(cancelLink) } as never)) as unknown as {
      data: { outcome: string };
    };
    expect(shown.data.outcome).toBe("ready");
    expect((await listRegistrations(created.id)).map((r) => r.status)).toEqual(["registered", "waiting"]);
    const done = (await eventCancel.action({
      params: { token },
      request: new Request(cancelLink, { method: "POST", body: "" }),
    } as never)) as unknown as {
      data: { outcome: string };
    };
    expect(done.data.outcome).toBe("cancelled");
    expect((await listRegistrations(created.id)).map((r) => r.status)).toEqual(["cancelled", "registered"]);
    const [promoted] = await mailTo("sam@owner.example");
    expect(promoted.subject).toBe(`A place is now yours: ${created.title}`);
    expect(promoted.text_body).toContain("Join the webinar: https://meet.example.com/secret-room-4471");
  });

  it("bad input: 400 with field errors and the typed values; the honeypot: the neutral answer and nothing stored", async () => {
    const created = await createEvent(input("Form checks", at("2027-09-15T12:00")), ACTOR);
    const bad = await register(created.slug, { email: "not-an-address", name: "" }, "198.51.100.30");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.data.errors ?? {}).sort()).toEqual(["email", "name"]);
    const robot = await register(created.slug, { [HONEYPOT_FIELD]: "x" }, "198.51.100.31");
    expect(robot.data.status.text).toBe(REGISTRATION_MSG.refused);
    expect(await listRegistrations(created.id)).toEqual([]);
  });
});

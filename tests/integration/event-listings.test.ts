/**
 * Events on other public pages (issue 45 item 8), through the real loaders
 * and components on the demo content: a speaker's profile lists the upcoming
 * events they speak at (title linked to the event's page, date and time in
 * Toronto time as /events shows them, format); a practice page's overview
 * lists its next three with "All events" to /events filtered by the area;
 * nothing when there are none. The pages are in the page cache: a new event
 * and an event's end are announced on content-events (which clears it).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { onContentChange } from "~/.server/db/content-events";
import { db } from "~/.server/db/client";
import { createEvent, type EventInput } from "~/.server/db/events";
import { events, team } from "~/.server/db/schema";
import { seedDemoContent } from "~/.server/db/seed";
import { announcePassedEvents } from "~/.server/jobs/jobs";
import { markEventsLookedAt } from "~/.server/db/event-listings";
import { eventDateText, eventTimeText } from "~/lib/events";
import * as lawyer from "~/routes/public/lawyer";
import * as practice from "~/routes/public/practice";
import { setUpTestDatabase, TEST_ACTOR } from "../support/database";
import { eventInput } from "../support/events";
import { testContext } from "../support/route-call";

setUpTestDatabase();
const SITE = "http://localhost:3000";

beforeAll(async () => {
  await seedDemoContent();
}, 120_000);

type Card = { slug: string; title: string; date: string; time: string; format: string };
type Loaded = { events: Card[] };

async function slugOf(name: string): Promise<{ id: number; slug: string }> {
  const [row] = await db().select({ id: team.id, slug: team.slug }).from(team).where(eq(team.full_name, name));
  return row;
}

async function page(mod: typeof lawyer | typeof practice, url: string, params: Record<string, string> = {}) {
  const request = new Request(SITE + url);
  const loaderData = (await mod.loader({ request, params, context: testContext() } as never)) as unknown as Loaded;
  // A data router, as the server renders (the page's pictures read the root's loader data).
  const handler = createStaticHandler([
    { id: "page", path: "*", Component: () => createElement(mod.default as never, { loaderData } as never) },
  ]);
  const context = await handler.query(request);
  if (context instanceof Response) throw new Error("unexpected response");
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToStaticMarkup(createElement(StaticRouterProvider, { router, context }));
  return { data: loaderData, html };
}

/** The visible text of the "Upcoming events" section (null when the page has none). */
function eventsSection(html: string): string | null {
  const m = /<section aria-labelledby="events-title"[\s\S]*?<\/section>/.exec(html);
  return m ? m[0] : null;
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();

/** A published in-person cyber event starting `startsInDays` days from now; `extra` changes any of it. */
const event = (title: string, startsInDays: number, extra: Partial<EventInput> = {}): EventInput =>
  eventInput(title, startsInDays * 86_400_000, { practice_area: "cyber", ...extra });

describe("a lawyer's profile", () => {
  it("lists the upcoming demo event its lawyer speaks at, linked, in Toronto time, with its format", async () => {
    const { slug } = await slugOf("Rajiv Menon");
    const { data, html } = await page(lawyer, `/lawyer/${slug}`, { slug });
    expect(data.events.map((e) => e.title)).toEqual(["Ransomware Claims in 2027: What Insurers Should Expect"]);
    const [card] = data.events;
    const section = eventsSection(html);
    expect(section).not.toBeNull();
    expect(section).toContain('<h2 id="events-title" class="text-2xl font-semibold">Upcoming events</h2>');
    expect(section).toContain(`<a href="/event/${card.slug}"`);
    const words = text(section!);
    expect(words).toContain("Webinar · Cyber");
    // The demo webinar starts at 12:00 in Toronto, whatever the zone of the machine running the test.
    expect(card.time).toBe("12:00 p.m. ET");
    expect(words).toContain(`${card.date}, 12:00 p.m. ET`);
    expect(card.date).toMatch(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
  });

  it("shows no events section for a lawyer who speaks only at a past event, or at none", async () => {
    for (const name of ["Eleanor Whitcombe", "Hiroshi Tanaka"]) {
      const { slug } = await slugOf(name);
      const { data, html } = await page(lawyer, `/lawyer/${slug}`, { slug });
      expect(data.events).toEqual([]);
      expect(eventsSection(html)).toBeNull();
      expect(html).not.toContain("Upcoming events");
    }
  });

  it("leaves out drafts and cancelled events, lists the rest soonest first", async () => {
    const { id, slug } = await slugOf("Amelia Brandt");
    const speakers = [{ memberId: id }];
    await createEvent(event("Brandt Later Talk", 60, { speakers }), TEST_ACTOR);
    await createEvent(event("Brandt Sooner Talk", 10, { speakers, format: "hybrid" }), TEST_ACTOR);
    await createEvent(event("Brandt Draft Talk", 5, { speakers, status: "draft" }), TEST_ACTOR);
    const cancelled = await createEvent(event("Brandt Cancelled Talk", 7, { speakers }), TEST_ACTOR);
    await db().update(events).set({ event_status: "cancelled" }).where(eq(events.id, cancelled.id));
    const { data } = await page(lawyer, `/lawyer/${slug}`, { slug });
    expect(data.events.map((e) => [e.title, e.format])).toEqual([
      ["Brandt Sooner Talk", "Hybrid"],
      ["Brandt Later Talk", "In person"],
    ]);
  });
});

describe("a practice page", () => {
  it("lists its upcoming events with All events to /events filtered by the area", async () => {
    const { data, html } = await page(practice, "/construction");
    expect(data.events.map((e) => e.title)).toEqual(["Delay Claims Breakfast Seminar"]);
    const section = eventsSection(html)!;
    expect(section).toContain(`<a href="/event/${data.events[0].slug}"`);
    expect(section).toMatch(/<a href="\/events\?area=construction"[^>]*>All events/);
    const words = text(section);
    expect(words).toContain("In person · Construction");
    expect(words).toContain(`${data.events[0].date}, 8:30 a.m. ET`);
  });

  it("shows at most three, soonest first, and only on the overview", async () => {
    for (const [title, days] of [
      ["Cyber Four", 40],
      ["Cyber One", 2],
      ["Cyber Three", 30],
      ["Cyber Two", 3],
    ] as const)
      await createEvent(event(title, days), TEST_ACTOR);
    const { data, html } = await page(practice, "/cyber");
    expect(data.events.map((e) => e.title)).toEqual(["Cyber One", "Cyber Two", "Brandt Sooner Talk"]);
    const one = data.events[0];
    const [row] = await db().select().from(events).where(eq(events.slug, one.slug));
    expect([one.date, one.time]).toEqual([eventDateText(row.starts_at), eventTimeText(row.starts_at)]);
    expect(text(eventsSection(html)!)).toContain(`${one.date}, ${one.time}`);
    const insights = await page(practice, "/cyber?tab=insights");
    expect(eventsSection(insights.html)).toBeNull();
  });

  it("shows nothing when the area has no upcoming event (the demo insurance event is past)", async () => {
    const { data, html } = await page(practice, "/insurance");
    expect(data.events).toEqual([]);
    expect(eventsSection(html)).toBeNull();
    expect(html).not.toContain("All events");
  });
});

describe("the page cache hears of events", () => {
  it("a new event, an event's end and a write to an event are announced (the cache is cleared); nothing else is", async () => {
    const heard: string[] = [];
    const stop = onContentChange((what) => heard.push(what));
    try {
      const created = await createEvent(event("Announced Event", 1), TEST_ACTOR);
      expect(heard).toEqual(["events"]);
      heard.length = 0;
      // The last look (any process's) was two minutes before the end; the next, a minute before it: nothing ended.
      await markEventsLookedAt(new Date(created.ends_at.getTime() - 120_000));
      expect(await announcePassedEvents(new Date(created.ends_at.getTime() - 60_000))).toEqual({ changed: 0 });
      expect(heard).toEqual([]);
      // The next look, a minute after the end: announced once.
      expect(await announcePassedEvents(new Date(created.ends_at.getTime() + 60_000))).toEqual({ changed: 1 });
      expect(heard).toEqual(["events"]);
      // And not again.
      expect(await announcePassedEvents(new Date(created.ends_at.getTime() + 120_000))).toEqual({ changed: 0 });
      expect(heard).toEqual(["events"]);
      // A write that did not announce itself (the dashboard's, say) is caught by the next look.
      heard.length = 0;
      const later = new Date(created.ends_at.getTime() + 180_000);
      await db()
        .update(events)
        .set({ title: "Announced Event, renamed", updated_at: new Date(later.getTime() - 30_000) })
        .where(eq(events.id, created.id));
      expect(await announcePassedEvents(later)).toEqual({ changed: 1 });
      expect(heard).toEqual(["events"]);
      // The look's end is kept in the database: a look made by another process (or before a restart) is where the
      // next begins, so a write that look covered is not announced again.
      heard.length = 0;
      await db()
        .update(events)
        .set({ title: "Announced Event, renamed again", updated_at: new Date(later.getTime() + 30_000) })
        .where(eq(events.id, created.id));
      await markEventsLookedAt(new Date(later.getTime() + 60_000));
      expect(await announcePassedEvents(new Date(later.getTime() + 90_000))).toEqual({ changed: 0 });
      expect(heard).toEqual([]);
    } finally {
      stop();
    }
  });
});

/**
 * An event as the integration tests make it: published now, starting
 * `startsIn` ms from now, 90 minutes long, in person at the firm, Insurance
 * Defence, 10 places; `extra` changes any of it.
 */
import type { EventInput } from "~/.server/db/events";

export function eventInput(title: string, startsIn: number, extra: Partial<EventInput> = {}): EventInput {
  const starts = new Date(Date.now() + startsIn);
  return {
    title,
    summary: `${title}: a summary.`,
    copy: "<p>Body.</p>",
    status: "published",
    published_at: new Date(),
    starts_at: starts,
    ends_at: new Date(starts.getTime() + 90 * 60_000),
    format: "in-person",
    practice_area: "insurance",
    venue_name: "Harrow Kline LLP",
    capacity: 10,
    ...extra,
  };
}

/**
 * A construction webinar published a day ago, starting `startsIn` ms from
 * now, 90 minutes long, an hour of Substantive CPD (the events bench and the
 * reminders kill test).
 */
export function webinarInput(startsIn: number, fields: Pick<EventInput, "title" | "summary" | "webinar_url" | "capacity">): EventInput {
  const starts = new Date(Date.now() + startsIn);
  return {
    title: fields.title,
    summary: fields.summary,
    copy: "<p>The program.</p>",
    status: "published",
    published_at: new Date(Date.now() - 86_400_000),
    starts_at: starts,
    ends_at: new Date(starts.getTime() + 90 * 60_000),
    format: "webinar",
    practice_area: "construction",
    webinar_url: fields.webinar_url,
    capacity: fields.capacity,
    cpd_substantive_minutes: 60,
    cpd_professionalism_minutes: 0,
  };
}

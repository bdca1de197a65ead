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

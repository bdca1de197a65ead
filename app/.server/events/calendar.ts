/**
 * An event's calendar file (RFC 5545, issue 45), written by ical-generator:
 * served at /event/:slug.ics and attached to the registration e-mails.
 *
 * - `UID` is the event's own (`event-{id}@{site host}`): stable across edits,
 *   so a calendar updates the entry it has instead of adding another.
 * - `DTSTART`/`DTEND` are written in UTC (the "Z" form): the same instant in
 *   every calendar whatever the daylight-saving rules it knows; the
 *   `America/Toronto` wall-clock time is what the page shows.
 * - `SEQUENCE` is the event's (raised by every move and by a cancellation);
 *   a cancelled event is written with `METHOD:CANCEL` and `STATUS:CANCELLED`.
 * - The webinar's joining link is written only into a registrant's file
 *   (`joinUrl`), never into the public one.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { FIRM } from "~/config/firm";
import { eventPath, locationText } from "~/lib/events";
import type { Event } from "../db/events";

export function eventUid(event: Pick<Event, "id">, siteUrl: string): string {
  return `event-${event.id}@${new URL(siteUrl).hostname}`;
}

export function eventCalendar(event: Event, siteUrl: string, options: { joinUrl?: string } = {}): string {
  const cancelled = event.event_status === "cancelled";
  const calendar = ical({
    prodId: { company: FIRM.name, product: "Events", language: "EN" },
    name: FIRM.name,
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.PUBLISH,
  });
  const url = new URL(eventPath(event.slug), siteUrl).toString();
  const description = [event.summary, options.joinUrl ? `Join the webinar: ${options.joinUrl}` : "", `Details: ${url}`]
    .filter(Boolean)
    .join("\n\n");
  calendar.createEvent({
    id: eventUid(event, siteUrl),
    sequence: event.sequence,
    stamp: event.updated_at,
    start: event.starts_at,
    end: event.ends_at,
    summary: event.title,
    description,
    location: locationText(event),
    url,
    organizer: { name: FIRM.name, email: FIRM.email },
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

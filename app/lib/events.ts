/**
 * Events and webinars (issue 45): the words and links the public pages, the
 * e-mails and the calendar files share. Pure (server and browser).
 *
 * CPD (Law Society of Ontario): Substantive hours need no accreditation;
 * Professionalism hours may be advertised only once the LSO's accreditation
 * number and date are recorded, or the firm is an accredited provider
 * (FIRM.lsoAccreditedProvider). Watching a recording alone counts for at most
 * 6 hours a year.
 */
import { FIRM } from "~/config/firm";
import { FIRM_TIME_ZONE } from "./firm-time";
import { PRACTICE_AREAS, PRACTICE_PAGES, type PracticeArea } from "./practice";

export const EVENT_FORMATS = ["in-person", "webinar", "hybrid"] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

export const FORMAT_LABELS: Record<EventFormat, string> = { "in-person": "In person", webinar: "Webinar", hybrid: "Hybrid" };

export const EVENT_STATUSES = ["scheduled", "rescheduled", "cancelled"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const REGISTRATION_STATUSES = ["registered", "waiting", "cancelled", "attended"] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** /events shows this many a page. */
export const EVENTS_PAGE_SIZE = 6;

export const WEBINAR_LOCATION = "Webinar: the link is e-mailed to registered attendees";
export const FULL_TEXT = "Full: join the waiting list";
export const RECORDING_NOTE =
  "Watching a recording alone counts toward the Law Society of Ontario's limit of 6 hours a year of CPD from recorded programs.";

export type EventFilters = { area: PracticeArea | "all"; format: EventFormat | "all" };

export function parseEventFilters(params: URLSearchParams): EventFilters {
  const area = params.get("area");
  const format = params.get("format");
  return {
    area: (PRACTICE_AREAS as readonly string[]).includes(area ?? "") ? (area as PracticeArea) : "all",
    format: (EVENT_FORMATS as readonly string[]).includes(format ?? "") ? (format as EventFormat) : "all",
  };
}

/** /events with its filters and page, parameters in one order (one address per list, one page-cache entry). */
export function eventsHref(filters: EventFilters, page = 1): string {
  const q = new URLSearchParams();
  if (filters.area !== "all") q.set("area", filters.area);
  if (filters.format !== "all") q.set("format", filters.format);
  if (page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `/events?${s}` : "/events";
}

export function eventPath(slug: string): string {
  return `/event/${encodeURIComponent(slug)}`;
}

export function practiceAreaLabel(area: string): string {
  return (PRACTICE_PAGES as Record<string, { title: string } | undefined>)[area]?.title ?? area;
}

/**
 * The date and time formats, made once a zone: `toLocaleDateString` with
 * options builds a new Intl.DateTimeFormat at every call, which a page of
 * events and every registration's answer and e-mail paid for again and again
 * (npm run bench:events' profile).
 */
const FORMATS = {
  date: { weekday: "long", month: "long", day: "numeric", year: "numeric" },
  time: { hour: "numeric", minute: "2-digit" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: keyof typeof FORMATS, timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat("en-CA", { timeZone, ...FORMATS[kind] })));
  return f;
}

/** "Thursday, March 12, 2026" in the firm's zone. */
export function eventDateText(date: Date | string, timeZone = FIRM_TIME_ZONE): string {
  return formatter("date", timeZone).format(new Date(date));
}

/** "12:00 p.m. ET": the firm's zone, named. */
export function eventTimeText(date: Date | string, timeZone = FIRM_TIME_ZONE): string {
  const time = formatter("time", timeZone).format(new Date(date));
  return `${time} ET`;
}

/** An event as its card shows it (/events, a lawyer's profile, a practice page): words only, in the firm's zone. */
export type EventCardView = {
  slug: string;
  title: string;
  summary: string;
  date: string;
  time: string;
  format: string;
  area: string;
  past: boolean;
  cancelled: boolean;
};

/** The card's words from an event's row (the loader's side of components/public/event-card.tsx). */
export function eventCardView(e: {
  slug: string;
  title: string;
  summary: string;
  starts_at: Date | string;
  format: string;
  practice_area: string;
  event_status: string;
  past: boolean;
}): EventCardView {
  return {
    slug: e.slug,
    title: e.title,
    summary: e.summary,
    date: eventDateText(e.starts_at),
    time: eventTimeText(e.starts_at),
    format: FORMAT_LABELS[e.format as EventFormat] ?? e.format,
    area: practiceAreaLabel(e.practice_area),
    past: e.past,
    cancelled: e.event_status === "cancelled",
  };
}

/** "1 hour 30 minutes". */
export function durationText(start: Date | string, end: Date | string): string {
  const minutes = Math.max(0, Math.round((new Date(end).getTime() - new Date(start).getTime()) / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts = [h ? `${h} ${h === 1 ? "hour" : "hours"}` : "", m ? `${m} ${m === 1 ? "minute" : "minutes"}` : ""].filter(Boolean);
  return parts.join(" ") || "0 minutes";
}

/** Minutes as CPD hours: 90 → "1.5", 60 → "1", 45 → "0.75". */
export function cpdHours(minutes: number): string {
  return String(Math.round((minutes / 60) * 100) / 100);
}

export type CpdInput = {
  cpd_substantive_minutes: number;
  cpd_professionalism_minutes: number;
  accreditation_number: string;
  accreditation_date: string | null;
};

/** Professionalism hours may be advertised: accreditation number and date recorded, or the firm an accredited provider. */
export function professionalismAccredited(event: CpdInput, accreditedProvider: boolean = FIRM.lsoAccreditedProvider): boolean {
  return accreditedProvider || (!!event.accreditation_number.trim() && !!event.accreditation_date);
}

/**
 * The CPD line in the LSO's wording: "This program is eligible for up to 1.5
 * Substantive Hours and 0.5 Professionalism Hours." Professionalism hours only
 * when they may be advertised; null when the program claims no hours.
 */
export function cpdText(event: CpdInput, accreditedProvider: boolean = FIRM.lsoAccreditedProvider): string | null {
  const professionalism = professionalismAccredited(event, accreditedProvider) ? event.cpd_professionalism_minutes : 0;
  const parts = [
    event.cpd_substantive_minutes > 0
      ? `${cpdHours(event.cpd_substantive_minutes)} Substantive ${event.cpd_substantive_minutes === 60 ? "Hour" : "Hours"}`
      : "",
    professionalism > 0 ? `${cpdHours(professionalism)} Professionalism ${professionalism === 60 ? "Hour" : "Hours"}` : "",
  ].filter(Boolean);
  if (!parts.length) return null;
  return `This program is eligible for up to ${parts.join(" and ")}.`;
}

/** The accreditation's line under the CPD wording, when recorded. */
export function accreditationText(event: CpdInput): string | null {
  if (!event.accreditation_number.trim() || !event.accreditation_date) return null;
  return `Professionalism content accredited by the Law Society of Ontario (accreditation number ${event.accreditation_number.trim()}, ${eventDateText(`${event.accreditation_date}T12:00:00Z`, "UTC")}).`;
}

/** "12 places left", "1 place left", or the full text (null capacity: no line). */
export function placesText(capacity: number | null, registered: number): string | null {
  if (capacity === null) return null;
  const left = capacity - registered;
  if (left <= 0) return FULL_TEXT;
  return `${left} ${left === 1 ? "place" : "places"} left`;
}

export type VenueInput = {
  format: string;
  venue_name: string;
  venue_street: string;
  venue_city: string;
  venue_region: string;
  venue_postal_code: string;
};

/** The venue's name and address as the event has them: a save and the form carry them unchanged. */
export function venueAddress(event: VenueInput): Omit<VenueInput, "format"> {
  const { venue_name, venue_street, venue_city, venue_region, venue_postal_code } = event;
  return { venue_name, venue_street, venue_city, venue_region, venue_postal_code };
}

/** The venue and its address on one line ("" for a webinar). */
export function venueText(event: VenueInput): string {
  if (event.format === "webinar") return "";
  const cityLine = [event.venue_city, [event.venue_region, event.venue_postal_code].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [event.venue_name, event.venue_street, cityLine].filter(Boolean).join(", ");
}

/** Where the event is, as the page, the calendar file and the e-mails say it (never the joining link). */
export function locationText(event: VenueInput): string {
  if (event.format === "webinar") return WEBINAR_LOCATION;
  const venue = venueText(event);
  return event.format === "hybrid" ? `${venue} (or by webinar: the link is e-mailed to registered attendees)` : venue;
}

type CalendarLinkInput = { title: string; starts_at: Date | string; ends_at: Date | string; details: string; location: string };

const compactUtc = (date: Date | string) =>
  new Date(date)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** "Add to Google Calendar": Google's event template, times in UTC. */
export function googleCalendarUrl(event: CalendarLinkInput): string {
  const q = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${compactUtc(event.starts_at)}/${compactUtc(event.ends_at)}`,
    details: event.details,
    location: event.location,
  });
  return `https://calendar.google.com/calendar/render?${q.toString()}`;
}

/** "Add to Outlook.com": Outlook on the web's compose link, times in UTC. */
export function outlookCalendarUrl(event: CalendarLinkInput): string {
  const q = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: event.title,
    startdt: new Date(event.starts_at).toISOString(),
    enddt: new Date(event.ends_at).toISOString(),
    body: event.details,
    location: event.location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${q.toString()}`;
}

/**
 * The event form (dashboard: create and edit; issue 45). Times are typed in
 * Toronto time (datetime-local) and stored as instants; CPD hours are typed
 * in hours (quarter hours) and stored in minutes. Speakers are team members
 * (checkboxes `speakers`) and guests (rows `guest_name` / `guest_organisation`).
 * Shared by the browser's check and the server's.
 */
import { z } from "zod";
import { EVENT_FORMATS, venueAddress, type EventFormat, type VenueInput } from "../events";
import { PRACTICE_AREAS } from "../practice";
import { parseFirmLocal, toFirmLocalInput } from "../firm-time";
import { ARTICLE_STATUS_LABELS, htmlHasText, type ArticleStatus } from "./article";
import { hasNoNul, nulMessage, text } from "./fields";
import { isCaptionsKey, isRecordingKey, RECORDING_MSG } from "../recordings";

export const EVENT_STATUS_LABELS = ARTICLE_STATUS_LABELS;
export const EVENT_SUMMARY_MAX = 300;
export const EVENT_COPY_MAX = 100_000;
export const MAX_GUESTS = 10;
export const MAX_SPEAKERS = 20;
export const MAX_CAPACITY = 100_000;
/** Repeated fields read as lists (checkboxes and guest rows). */
export const EVENT_LISTS = ["speakers", "guest_name", "guest_organisation"] as const;

export const EVENT_MSG = {
  added: "Event added successfully.",
  updated: "Event updated successfully.",
  deleted: "The event was moved to the Trash. You can restore it from the Trash for 30 days.",
  cancelled: "The event is cancelled. Everyone registered or waiting is being told by e-mail, with a calendar cancellation.",
  moved: "The event's time changed. Everyone registered is being sent the new time and an updated calendar entry.",
  alreadyCancelled: "This event is already cancelled.",
  notFound: "That event was not found. It may have been deleted.",
  loadError: "An error occurred while loading the event. Please reload the page.",
  saveError: "An error occurred while saving the event. Please try again.",
  speakersUnknown: "One of the chosen speakers is no longer on the team list. Reload the page to see the current list.",
} as const;

const optionalPlain = (label: string, max: number) => text(label, max, { optional: true }).transform((v) => v.replace(/\s+/g, " "));

/** A link typed by a person: https:// added when left out; only http(s). */
const optionalLink = (label: string) =>
  text(label, 2000, { optional: true })
    .transform((v) => (v && !/^[a-z][a-z0-9+.-]*:/i.test(v) ? `https://${v}` : v))
    .refine((v) => {
      if (!v) return true;
      try {
        const u = new URL(v);
        return (u.protocol === "https:" || u.protocol === "http:") && u.hostname.includes(".");
      } catch {
        return false;
      }
    }, `${label} must be a web address, such as https://example.com/…`);

/** Hours in quarter hours (0 to 24), typed as "1.5" or "1,5"; stored as minutes. */
const hours = (label: string) =>
  z
    .preprocess((v) => (typeof v === "string" ? v.trim().replace(",", ".") : ""), z.string())
    .refine((v) => v === "" || /^\d{1,2}(\.\d{1,2})?$/.test(v), `${label} must be a number of hours, such as 1.5.`)
    .transform((v) => (v === "" ? 0 : Math.round(Number(v) * 60)))
    .refine((m) => m <= 24 * 60, `${label} can be at most 24.`)
    .refine((m) => m % 15 === 0, `${label} must be in quarter hours (0.25, 0.5, 0.75…).`);

const ids = (message: string) =>
  z
    .preprocess((v) => (v == null ? [] : Array.isArray(v) ? (v as unknown[]) : [v]), z.array(z.string({ error: message })))
    .refine((list) => list.every((id) => /^[1-9]\d{0,8}$/.test(id)), message)
    .transform((list) => [...new Set(list.map(Number))]);

const strings = z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? (v as unknown[]) : [v]), z.array(z.string()));

function localTime(value: string, label: string, ctx: z.RefinementCtx, path: string): Date | null {
  const parsed = parseFirmLocal(value, label);
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", path: [path], message: parsed.message });
    return null;
  }
  return parsed.date;
}

export const eventSchema = z
  .object({
    title: text("Title", 300),
    summary: optionalPlain("Summary", EVENT_SUMMARY_MAX),
    copy: z
      .string({ error: "Description is required." })
      .max(EVENT_COPY_MAX, `The description must be at most ${EVENT_COPY_MAX.toLocaleString("en-CA")} characters.`)
      .refine(htmlHasText, "Description is required.")
      .refine(hasNoNul, nulMessage("The description")),
    format: z.enum(EVENT_FORMATS, { error: "Choose the format: in person, webinar or hybrid." }),
    practice_area: z.enum(PRACTICE_AREAS, { error: "Choose a practice area." }),
    starts_at: text("Start", 40),
    ends_at: text("End", 40),
    registration_closes_at: text("Registration closes", 40, { optional: true }),
    capacity: z
      .preprocess((v) => (typeof v === "string" ? v.trim() : ""), z.string())
      .refine((v) => v === "" || /^\d{1,6}$/.test(v), "Places must be a whole number (or empty for no limit).")
      .transform((v) => (v === "" ? null : Number(v)))
      .refine((n) => n === null || (n >= 1 && n <= MAX_CAPACITY), `Places must be between 1 and ${MAX_CAPACITY.toLocaleString("en-CA")}.`),
    venue_name: optionalPlain("Venue", 200),
    venue_street: optionalPlain("Street address", 200),
    venue_city: optionalPlain("City", 100),
    venue_region: optionalPlain("Province", 100),
    venue_postal_code: optionalPlain("Postal code", 20),
    webinar_url: optionalLink("Webinar link"),
    cpd_substantive: hours("Substantive hours"),
    cpd_professionalism: hours("Professionalism hours"),
    accreditation_number: optionalPlain("Accreditation number", 100),
    accreditation_date: text("Accreditation date", 10, { optional: true }).refine(
      (v) => v === "" || /^\d{4}-\d{2}-\d{2}$/.test(v),
      "Accreditation date must be a date, such as 2027-01-31.",
    ),
    recording_url: optionalLink("Recording link"),
    // An uploaded recording: the key the upload answered (event-recording-upload.ts), kept unless "Remove" is ticked.
    recording_file: z
      .preprocess((v) => (typeof v === "string" ? v.trim() : ""), z.string())
      .refine((v) => v === "" || isRecordingKey(v), RECORDING_MSG.gone),
    recording_remove: z.preprocess((v) => v === "on", z.boolean()),
    // The recording's captions (a WebVTT file, the `captions_file` field, read by the server): "Remove" ticked.
    captions_remove: z.preprocess((v) => v === "on", z.boolean()),
    speakers: ids("Select the speakers from the list of team members."),
    guest_name: strings,
    guest_organisation: strings,
    status: z.preprocess(
      (v) => (v == null || v === "" ? "draft" : v),
      z.enum(["draft", "scheduled", "published"], { error: "Choose draft, scheduled or published." }),
    ),
    publish_at: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string().max(40)),
  })
  .transform((v, ctx) => {
    const startsAt = localTime(v.starts_at, "Start", ctx, "starts_at");
    const endsAt = localTime(v.ends_at, "End", ctx, "ends_at");
    if (startsAt && endsAt && endsAt <= startsAt)
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: "End must be after the start." });
    if (startsAt && endsAt && endsAt.getTime() - startsAt.getTime() > 14 * 86_400_000)
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: "An event can last at most 14 days." });
    const closesAt = v.registration_closes_at
      ? localTime(v.registration_closes_at, "Registration closes", ctx, "registration_closes_at")
      : null;
    if (closesAt && startsAt && closesAt > startsAt)
      ctx.addIssue({ code: "custom", path: ["registration_closes_at"], message: "Registration must close before the event starts." });
    const inPerson = v.format !== "webinar";
    if (inPerson) {
      for (const [key, label] of [
        ["venue_name", "Venue"],
        ["venue_street", "Street address"],
        ["venue_city", "City"],
      ] as const)
        if (!v[key]) ctx.addIssue({ code: "custom", path: [key], message: `${label} is required for an event held in person.` });
    }
    // Professionalism hours are advertised once accredited (lib/events.ts); the number and the date go together.
    if (!!v.accreditation_number !== !!v.accreditation_date)
      ctx.addIssue({
        code: "custom",
        path: [v.accreditation_number ? "accreditation_date" : "accreditation_number"],
        message: "Record both the LSO's accreditation number and its date, or neither.",
      });
    const guests: { guestName: string; guestOrganisation: string }[] = [];
    const rows = Math.max(v.guest_name.length, v.guest_organisation.length);
    for (let i = 0; i < rows; i++) {
      const name = (v.guest_name[i] ?? "").trim().replace(/\s+/g, " ");
      const organisation = (v.guest_organisation[i] ?? "").trim().replace(/\s+/g, " ");
      if (!name && !organisation) continue;
      if (!name) ctx.addIssue({ code: "custom", path: ["guests"], message: "Each guest speaker needs a name." });
      else if (name.length > 200 || organisation.length > 200 || !hasNoNul(name + organisation))
        ctx.addIssue({ code: "custom", path: ["guests"], message: "A guest's name and organisation can be at most 200 characters each." });
      else guests.push({ guestName: name, guestOrganisation: organisation });
    }
    if (guests.length > MAX_GUESTS)
      ctx.addIssue({ code: "custom", path: ["guests"], message: `At most ${MAX_GUESTS} guest speakers can be named.` });
    if (v.speakers.length + guests.length > MAX_SPEAKERS)
      ctx.addIssue({ code: "custom", path: ["speakers"], message: `At most ${MAX_SPEAKERS} speakers can be named.` });
    let publishAt: Date | null = null;
    if (v.status === "scheduled") {
      if (!v.publish_at.trim())
        ctx.addIssue({ code: "custom", path: ["publish_at"], message: "Publish time is required for a scheduled event." });
      else {
        publishAt = localTime(v.publish_at, "Publish time", ctx, "publish_at");
        if (publishAt && publishAt.getTime() <= Date.now())
          ctx.addIssue({ code: "custom", path: ["publish_at"], message: "Publish time must be in the future (or choose Published)." });
      }
    }
    const recordingFile = v.recording_remove ? "" : v.recording_file;
    if (recordingFile && v.recording_url) ctx.addIssue({ code: "custom", path: ["recording_url"], message: RECORDING_MSG.both });
    if (!startsAt || !endsAt) return z.NEVER;
    return {
      title: v.title,
      summary: v.summary,
      copy: v.copy,
      format: v.format,
      practice_area: v.practice_area,
      starts_at: startsAt,
      ends_at: endsAt,
      registration_closes_at: closesAt,
      capacity: v.capacity,
      venue_name: inPerson ? v.venue_name : "",
      venue_street: inPerson ? v.venue_street : "",
      venue_city: inPerson ? v.venue_city : "",
      venue_region: inPerson ? v.venue_region : "",
      venue_postal_code: inPerson ? v.venue_postal_code : "",
      webinar_url: v.format === "in-person" ? "" : v.webinar_url,
      cpd_substantive_minutes: v.cpd_substantive,
      cpd_professionalism_minutes: v.cpd_professionalism,
      accreditation_number: v.accreditation_number,
      accreditation_date: v.accreditation_date || null,
      // The row keeps one: the uploaded file's key, or the link.
      recording_url: recordingFile || v.recording_url,
      captions_remove: v.captions_remove,
      speakerIds: v.speakers,
      guests,
      status: v.status,
      publishAt,
    };
  });

export type EventForm = z.infer<typeof eventSchema>;

export type EventFormValues = {
  title: string;
  summary: string;
  copy: string;
  format: EventFormat | "";
  practice_area: string;
  starts_at: string;
  ends_at: string;
  registration_closes_at: string;
  capacity: string;
  venue_name: string;
  venue_street: string;
  venue_city: string;
  venue_region: string;
  venue_postal_code: string;
  webinar_url: string;
  cpd_substantive: string;
  cpd_professionalism: string;
  accreditation_number: string;
  accreditation_date: string;
  recording_url: string;
  /** An uploaded recording's storage key ('' for none). */
  recording_file: string;
  recording_remove: boolean;
  /** The uploaded recording's captions' storage key ('' for none): shown, never taken from the form by the server. */
  recording_captions: string;
  captions_remove: boolean;
  speakers: string[];
  guests: { name: string; organisation: string }[];
  status: ArticleStatus;
  publish_at: string;
};

export const EMPTY_EVENT_VALUES: EventFormValues = {
  title: "",
  summary: "",
  copy: "",
  format: "",
  practice_area: "",
  starts_at: "",
  ends_at: "",
  registration_closes_at: "",
  capacity: "",
  venue_name: "",
  venue_street: "",
  venue_city: "Toronto",
  venue_region: "ON",
  venue_postal_code: "",
  webinar_url: "",
  cpd_substantive: "",
  cpd_professionalism: "",
  accreditation_number: "",
  accreditation_date: "",
  recording_url: "",
  recording_file: "",
  recording_remove: false,
  recording_captions: "",
  captions_remove: false,
  speakers: [],
  guests: [],
  status: "draft",
  publish_at: "",
};

const statusOf = (x: unknown): ArticleStatus => (x === "draft" || x === "scheduled" || x === "published" ? x : "draft");
const list = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : typeof x === "string" ? [x] : []);

/** What the person typed, kept for the form after a refusal (bounded). */
export function eventValuesFromForm(v: Record<string, string | string[]>): EventFormValues {
  const s = (key: string, max: number) => {
    const x = v[key];
    return typeof x === "string" ? x.slice(0, max) : "";
  };
  const format = s("format", 20);
  const names = list(v.guest_name);
  const orgs = list(v.guest_organisation);
  return {
    title: s("title", 600),
    summary: s("summary", EVENT_SUMMARY_MAX + 200),
    copy: s("copy", EVENT_COPY_MAX + 1000),
    format: (EVENT_FORMATS as readonly string[]).includes(format) ? (format as EventFormat) : "",
    practice_area: s("practice_area", 40),
    starts_at: s("starts_at", 40),
    ends_at: s("ends_at", 40),
    registration_closes_at: s("registration_closes_at", 40),
    capacity: s("capacity", 20),
    venue_name: s("venue_name", 400),
    venue_street: s("venue_street", 400),
    venue_city: s("venue_city", 200),
    venue_region: s("venue_region", 200),
    venue_postal_code: s("venue_postal_code", 40),
    webinar_url: s("webinar_url", 2100),
    cpd_substantive: s("cpd_substantive", 10),
    cpd_professionalism: s("cpd_professionalism", 10),
    accreditation_number: s("accreditation_number", 200),
    accreditation_date: s("accreditation_date", 20),
    recording_url: s("recording_url", 2100),
    recording_file: isRecordingKey(s("recording_file", 100)) ? s("recording_file", 100) : "",
    recording_remove: v.recording_remove === "on",
    recording_captions: isCaptionsKey(s("recording_captions", 100)) ? s("recording_captions", 100) : "",
    captions_remove: v.captions_remove === "on",
    speakers: list(v.speakers)
      .filter((id) => /^\d{1,9}$/.test(id))
      .slice(0, 200),
    guests: Array.from({ length: Math.min(Math.max(names.length, orgs.length), 50) }, (_, i) => ({
      name: (names[i] ?? "").slice(0, 400),
      organisation: (orgs[i] ?? "").slice(0, 400),
    })).filter((g) => g.name || g.organisation),
    status: statusOf(v.status),
    publish_at: s("publish_at", 40),
  };
}

const hoursText = (minutes: number) => (minutes ? String(minutes / 60) : "");

export function eventValuesFromRow(
  e: VenueInput & {
    title: string;
    summary: string;
    copy: string;
    practice_area: string;
    starts_at: Date;
    ends_at: Date;
    registration_closes_at: Date | null;
    capacity: number | null;
    webinar_url: string;
    cpd_substantive_minutes: number;
    cpd_professionalism_minutes: number;
    accreditation_number: string;
    accreditation_date: string | null;
    recording_url: string;
    recording_captions: string;
    status: string;
    published_at: Date | null;
  },
  speakers: readonly ({ memberId: number } | { guestName: string; guestOrganisation: string })[],
): EventFormValues {
  return {
    title: e.title,
    summary: e.summary,
    copy: e.copy,
    format: (EVENT_FORMATS as readonly string[]).includes(e.format) ? (e.format as EventFormat) : "",
    practice_area: e.practice_area,
    starts_at: toFirmLocalInput(e.starts_at),
    ends_at: toFirmLocalInput(e.ends_at),
    registration_closes_at: e.registration_closes_at ? toFirmLocalInput(e.registration_closes_at) : "",
    capacity: e.capacity === null ? "" : String(e.capacity),
    ...venueAddress(e),
    webinar_url: e.webinar_url,
    cpd_substantive: hoursText(e.cpd_substantive_minutes),
    cpd_professionalism: hoursText(e.cpd_professionalism_minutes),
    accreditation_number: e.accreditation_number,
    accreditation_date: e.accreditation_date ?? "",
    recording_url: isRecordingKey(e.recording_url) ? "" : e.recording_url,
    recording_file: isRecordingKey(e.recording_url) ? e.recording_url : "",
    recording_remove: false,
    recording_captions: isCaptionsKey(e.recording_captions) ? e.recording_captions : "",
    captions_remove: false,
    speakers: speakers.flatMap((s) => ("memberId" in s ? [String(s.memberId)] : [])),
    guests: speakers.flatMap((s) => ("guestName" in s ? [{ name: s.guestName, organisation: s.guestOrganisation }] : [])),
    status: statusOf(e.status),
    publish_at: e.status === "scheduled" ? toFirmLocalInput(e.published_at) : "",
  };
}

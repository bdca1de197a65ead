/**
 * The firm's clock: staff enter and read publish times in the firm's time
 * zone (FIRM_TIME_ZONE, an IANA zone: America/Toronto); the database stores UTC.
 * The zone's rules (offsets, daylight saving) come from `@date-fns/tz`, which
 * reads the runtime's time-zone database, so any IANA zone works.
 *
 * `<input type="datetime-local">` gives "YYYY-MM-DDTHH:MM" without a zone.
 * - A time in the hour skipped when clocks go forward (in Toronto 2:00–2:59
 *   on the second Sunday of March) does not exist: it is refused with a message.
 * - A time in the hour repeated when clocks go back (in Toronto 1:00–1:59 on
 *   the first Sunday of November) is read as the first one (the earlier moment:
 *   daylight time, EDT); times are always shown with their zone ("EDT"/"EST"),
 *   so neither is ambiguous.
 *
 * Not imported by the public pages' enhancement script (app/enhance).
 */
import { TZDate, tzName, tzOffset } from "@date-fns/tz";

export const FIRM_TIME_ZONE = "America/Toronto";

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const two = (n: number) => String(n).padStart(2, "0");

/** "YYYY-MM-DDTHH:MM" of a moment in the zone (the value of a datetime-local input). */
export function toFirmLocalInput(date: Date | string | null | undefined, timeZone = FIRM_TIME_ZONE): string {
  if (!date) return "";
  const ms = new Date(date).getTime();
  if (Number.isNaN(ms)) return "";
  const z = new TZDate(ms, timeZone);
  return `${z.getFullYear()}-${two(z.getMonth() + 1)}-${two(z.getDate())}T${two(z.getHours())}:${two(z.getMinutes())}`;
}

/**
 * A wall-clock time in a zone as a moment. `exact`: it happens once; `repeated`:
 * twice (clocks went back), `date` is the first; `skipped`: never (clocks went
 * forward), `date` is where the clock would be had it not changed (the offset
 * before the change), i.e. the moment of the change or just after it.
 */
type WallTime = { kind: "exact" | "repeated" | "skipped"; date: Date; gapMinutes: number };

function wallTimeIn(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): WallTime {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const wanted = `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}`;
  // The offsets in force around that time (a zone changes its offset at most once within a day or so).
  const before = tzOffset(timeZone, new Date(asUtc - DAY_MS));
  const after = tzOffset(timeZone, new Date(asUtc + DAY_MS));
  const matches = [...new Set([before, after])]
    .map((offset) => new Date(asUtc - offset * MINUTE_MS))
    .filter((candidate) => toFirmLocalInput(candidate, timeZone) === wanted)
    .sort((a, b) => a.getTime() - b.getTime());
  if (matches.length > 1) return { kind: "repeated", date: matches[0], gapMinutes: 0 };
  if (matches.length === 1) return { kind: "exact", date: matches[0], gapMinutes: 0 };
  return { kind: "skipped", date: new Date(asUtc - before * MINUTE_MS), gapMinutes: after - before };
}

/** "Toronto" for "America/Toronto", "Port of Spain" for "America/Port_of_Spain". */
function placeOf(timeZone: string): string {
  return (timeZone.split("/").pop() ?? timeZone).replaceAll("_", " ");
}

export type FirmTimeResult = { ok: true; date: Date } | { ok: false; message: string };

/** Reads a wall-clock time in the zone typed by staff; `label` names the field in messages. */
export function parseFirmLocal(value: string, label: string, timeZone = FIRM_TIME_ZONE): FirmTimeResult {
  const m = LOCAL.exec(value.trim().slice(0, 16));
  if (!m || value.trim().length > 19) return { ok: false, message: `${label}: enter a date and time (YYYY-MM-DD HH:MM).` };
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || year < 2000 || year > 2200) {
    return { ok: false, message: `${label}: this date does not exist.` };
  }
  const wall = wallTimeIn(year, month, day, hour, minute, timeZone);
  if (wall.kind !== "skipped") return { ok: true, date: wall.date };
  const jump = wall.gapMinutes === 60 ? "an hour" : `${wall.gapMinutes} minutes`;
  return {
    ok: false,
    message: `${label}: ${two(hour)}:${two(minute)} does not exist on that day in ${placeOf(timeZone)} (clocks go forward ${jump}). Choose another time.`,
  };
}

/**
 * The moment a local date ("YYYY-MM-DD") begins in the zone: its midnight, or,
 * where clocks go forward at midnight, the moment they do. Throws on anything else.
 */
export function startOfZonedDay(day: string, timeZone = FIRM_TIME_ZONE): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new Error(`Not a day: ${day}`);
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(year, month - 1, date));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) throw new Error(`Not a day: ${day}`);
  return wallTimeIn(year, month, date, 0, 0, timeZone).date;
}

/** A moment as staff read it, with its zone: "Mar 8, 2026, 3:30 a.m. EDT". */
export function firmDateTimeText(date: Date | string, timeZone = FIRM_TIME_ZONE): string {
  const d = new Date(date);
  return d.toLocaleString("en-CA", { timeZone, dateStyle: "medium", timeStyle: "short" }) + " " + zoneName(d, timeZone);
}

function zoneName(date: Date, timeZone: string): string {
  try {
    return tzName(timeZone, date, "short");
  } catch {
    return "";
  }
}

/** ISO 8601 with the zone's offset: "2027-03-15T12:00:00-04:00" (schema.org dates of events). */
export function isoWithOffset(date: Date | string, timeZone = FIRM_TIME_ZONE): string {
  const d = new Date(date);
  const offset = tzOffset(timeZone, d);
  const local = new Date(d.getTime() + offset * MINUTE_MS).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${local}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

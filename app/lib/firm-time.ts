/**
 * The firm's clock: staff enter and read publish times in Toronto time
 * (America/Toronto, daylight saving handled); the database stores UTC.
 *
 * `<input type="datetime-local">` gives "YYYY-MM-DDTHH:MM" without a zone.
 * - A time in the hour skipped when clocks go forward (2:00–2:59 on the
 *   second Sunday of March) does not exist: it is refused with a message.
 * - A time in the hour repeated when clocks go back (1:00–1:59 on the first
 *   Sunday of November) is read as the first one (daylight time, EDT); times
 *   are always shown with their zone ("EDT"/"EST"), so neither is ambiguous.
 */
export const FIRM_TIME_ZONE = "America/Toronto";

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const parts = new Intl.DateTimeFormat("en-CA", {
  timeZone: FIRM_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

/** "YYYY-MM-DDTHH:MM" of a moment in Toronto (the value of a datetime-local input). */
export function toFirmLocalInput(date: Date | string | null | undefined): string {
  if (!date) return "";
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return "";
  const p = Object.fromEntries(parts.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

export type FirmTimeResult = { ok: true; date: Date } | { ok: false; message: string };

/** Reads a Toronto wall-clock time typed by staff; `label` names the field in messages. */
export function parseFirmLocal(value: string, label: string): FirmTimeResult {
  const m = LOCAL.exec(value.trim().slice(0, 16));
  if (!m || value.trim().length > 19) return { ok: false, message: `${label}: enter a date and time (YYYY-MM-DD HH:MM).` };
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || year < 2000 || year > 2200) {
    return { ok: false, message: `${label}: this date does not exist.` };
  }
  const wanted = value.trim().slice(0, 16);
  // Toronto is UTC−4 (EDT) or UTC−5 (EST): the earlier moment first, so a repeated hour reads as EDT.
  for (const offsetHours of [4, 5]) {
    const candidate = new Date(asUtc + offsetHours * 3_600_000);
    if (toFirmLocalInput(candidate) === wanted) return { ok: true, date: candidate };
  }
  return {
    ok: false,
    message: `${label}: ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")} does not exist on that day in Toronto (clocks go forward an hour). Choose another time.`,
  };
}

/** A moment as staff read it, with its zone: "Mar 8, 2026, 3:30 a.m. EDT". */
export function firmDateTimeText(date: Date | string): string {
  return (
    new Date(date).toLocaleString("en-CA", { timeZone: FIRM_TIME_ZONE, dateStyle: "medium", timeStyle: "short" }) +
    " " +
    zoneName(new Date(date))
  );
}

function zoneName(date: Date): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: FIRM_TIME_ZONE, timeZoneName: "short" })
    .formatToParts(date)
    .find((p) => p.type === "timeZoneName")?.value;
  return name ?? "";
}

import { FIRM_TIME_ZONE } from "./firm-time";

/** The article date text of the spec: weekday, month day, year ("Monday, March 3, 2025"). */
export function articleDateText(date: Date, timeZone = FIRM_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone,
  }).format(date);
}

/** A moment as staff read it in the dashboard: "Mar 3, 2026, 2:05 p.m." (the firm's time zone). */
export function staffDateTime(date: Date | string, timeZone = FIRM_TIME_ZONE): string {
  return new Date(date).toLocaleString("en-CA", { timeZone, dateStyle: "medium", timeStyle: "short" });
}

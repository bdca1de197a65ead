/** The article date text of the spec: weekday, month day, year ("Monday, March 3, 2025"). */
export function articleDateText(date: Date, timeZone = "America/Toronto"): string {
  return new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone,
  }).format(date);
}

/**
 * Visit statistics: the pure rules, shared by the ingestion (server), the
 * rollups and the Statistics screen (decision 0023). What a beacon's page,
 * referrer and user agent become; the Toronto date ranges the screen shows.
 */
import { FIRM_TIME_ZONE, startOfZonedDay, toFirmLocalInput } from "./firm-time";

/** The one ingestion endpoint (the enhancement module posts here; server/app.ts answers it). */
export const STATS_BEACON_PATH = "/stats/beacon";

/** The page key of every page that is not one of the site's (a 404): counted once a visitor a day, never by its address. */
export const NOT_FOUND_PAGE = "(not found)";

/** The key under which a day's less frequent referrers, campaigns, search terms and outbound targets are counted (STATS_TOP_VALUES). */
export const OTHER_VALUES = "(other)";

/** The cookie that keeps a staff member's own browser out of the figures (set from the Statistics screen). */
export const STATS_OPT_OUT_COOKIE = "firm.stats_opt_out";

/** Time on page above this (a tab left open) is counted as this. */
export const MAX_TIME_ON_PAGE_MS = 30 * 60_000;

export type DeviceClass = "desktop" | "mobile" | "tablet";

/** Device class from a User-Agent header (an iPad asking for desktop sites reads as desktop). */
export function deviceClass(ua: string): DeviceClass {
  if (/iPad|Tablet|Kindle|Silk\/|PlayBook|Android(?!.*Mobile)/i.test(ua)) return "tablet";
  if (/Mobi|iPhone|iPod|Android|Windows Phone|BlackBerry|Opera Mini/i.test(ua)) return "mobile";
  return "desktop";
}

/** Browser family from a User-Agent header. */
export function browserFamily(ua: string): string {
  if (/Edg(A|iOS)?\//.test(ua)) return "Edge";
  if (/OPR\/|Opera/.test(ua)) return "Opera";
  if (/SamsungBrowser\//.test(ua)) return "Samsung Internet";
  if (/Firefox\/|FxiOS\//.test(ua)) return "Firefox";
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return "Chrome";
  if (/Safari\//.test(ua) && /Version\//.test(ua)) return "Safari";
  return "Other";
}

/** Search engines, grouped under one name whatever their country domain. */
const SEARCH_ENGINES: [RegExp, string][] = [
  [/(^|\.)google\.[a-z.]+$/, "Google"],
  [/(^|\.)bing\.com$/, "Bing"],
  [/(^|\.)duckduckgo\.com$/, "DuckDuckGo"],
  [/(^|\.)yahoo\.[a-z.]+$/, "Yahoo"],
  [/(^|\.)yandex\.[a-z.]+$/, "Yandex"],
  [/(^|\.)baidu\.com$/, "Baidu"],
  [/(^|\.)ecosia\.org$/, "Ecosia"],
  [/(^|\.)search\.brave\.com$/, "Brave Search"],
  [/(^|\.)qwant\.com$/, "Qwant"],
  [/(^|\.)startpage\.com$/, "Startpage"],
  [/(^|\.)kagi\.com$/, "Kagi"],
];

/** The prefix of a referrer key that is a search engine ("search:Google"). */
export const SEARCH_REFERRER = "search:";

/**
 * A referrer as it is counted: another site's domain (without "www."), or
 * "search:<engine>" for a search engine; null for none, this site itself
 * or something that is not an address.
 */
export function referrerKey(referrer: string | undefined, ownHosts: readonly string[]): string | null {
  if (!referrer) return null;
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (!host || ownHosts.includes(host)) return null;
  for (const [pattern, name] of SEARCH_ENGINES) if (pattern.test(host)) return `${SEARCH_REFERRER}${name}`;
  return host.replace(/^(www|m)\./, "").slice(0, 100);
}

/** A referrer key as staff read it. */
export function referrerLabel(key: string): string {
  return key.startsWith(SEARCH_REFERRER) ? `${key.slice(SEARCH_REFERRER.length)} (search engine)` : key;
}

/** "source / medium / campaign" from a page address's utm_ parameters; null without utm_source or utm_campaign. */
export function campaignKey(params: URLSearchParams): string | null {
  const clean = (name: string) =>
    (params.get(name) ?? "")
      .replace(/[\p{Cc}/]+/gu, " ")
      .trim()
      .slice(0, 60);
  const source = clean("utm_source");
  const campaign = clean("utm_campaign");
  if (!source && !campaign) return null;
  return [source || "(none)", clean("utm_medium") || "(none)", campaign || "(none)"].join(" / ");
}

/** What an outbound link is: a telephone or e-mail link, a contact card or a PDF; null for anything else. */
export type OutboundKind = "tel" | "mailto" | "vcard" | "pdf";

export function outboundKind(target: string): OutboundKind | null {
  if (/^tel:/i.test(target)) return "tel";
  if (/^mailto:/i.test(target)) return "mailto";
  if (/^\/lawyer\/[^/]+\/vcard$/.test(target)) return "vcard";
  if (/^\/[^?#]*\.pdf$/i.test(target)) return "pdf";
  return null;
}

export const OUTBOUND_LABELS: Record<OutboundKind, string> = {
  tel: "Phone call",
  mailto: "E-mail",
  vcard: "Contact card",
  pdf: "PDF download",
};

/** An outbound target as it is kept: tel:/mailto: without parameters, a path without its query. */
export function outboundTarget(href: string): string | null {
  const target = /^(tel|mailto):/i.test(href) ? href.split("?")[0] : href.split(/[?#]/)[0];
  const kept = target.slice(0, 200);
  return outboundKind(kept) ? kept : null;
}

/** Conversions: what a visit may end in (enquiries here; subscriptions confirmed by issue 31's confirmation). */
export const CONVERSION_KINDS = ["enquiry", "subscription"] as const;
export type ConversionKind = (typeof CONVERSION_KINDS)[number];

// ---------------------------------------------------------------------------
// Dates: Toronto days.

const DAY_MS = 86_400_000;

/** Today's date in Toronto, "YYYY-MM-DD". */
export function firmToday(now = new Date()): string {
  return toFirmLocalInput(now).slice(0, 10);
}

/** The Toronto date of a moment. */
export function firmDay(at: Date): string {
  return toFirmLocalInput(at).slice(0, 10);
}

/** `day` moved by `days` (calendar arithmetic, no clock). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The moment a firm day begins (its midnight; where clocks go forward at midnight, the moment they do). */
export function startOfFirmDay(day: string): Date {
  return startOfZonedDay(day);
}

export const RANGE_PRESETS = ["today", "7d", "30d", "90d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number] | "custom";

export const RANGE_LABELS: Record<RangePreset, string> = {
  today: "Today",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  custom: "Custom",
};

/** The longest custom range. */
export const MAX_RANGE_DAYS = 731;

export type StatsRange = {
  preset: RangePreset;
  /** First and last Toronto day, both included. */
  from: string;
  to: string;
  /** The period of the same length just before. */
  previousFrom: string;
  previousTo: string;
  days: number;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return DAY.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

export type RangeResult = { ok: true; range: StatsRange } | { ok: false; message: string; range: StatsRange };

/**
 * The range a request asks for (`range=today|7d|30d|90d|custom`, `from`/`to`
 * for custom), in Toronto days; a wrong custom range says why and falls back
 * to the last 30 days.
 */
export function parseRange(params: URLSearchParams, now = new Date()): RangeResult {
  const today = firmToday(now);
  const make = (preset: RangePreset, from: string, to: string): StatsRange => {
    const days = daysBetween(from, to);
    return { preset, from, to, days, previousFrom: addDays(from, -days), previousTo: addDays(from, -1) };
  };
  const preset = (params.get("range") ?? "30d") as RangePreset;
  const fallback = make("30d", addDays(today, -29), today);
  if (preset === "today") return { ok: true, range: make("today", today, today) };
  if (preset === "7d" || preset === "30d" || preset === "90d") {
    const n = Number(preset.slice(0, -1));
    return { ok: true, range: make(preset, addDays(today, -(n - 1)), today) };
  }
  if (preset !== "custom") return { ok: true, range: fallback };
  const from = (params.get("from") ?? "").trim();
  const to = (params.get("to") ?? "").trim();
  if (!isDay(from) || !isDay(to)) return { ok: false, message: "Enter both dates of the custom range (YYYY-MM-DD).", range: fallback };
  if (from > to) return { ok: false, message: "The custom range must start on or before its last day.", range: fallback };
  if (to > today) return { ok: false, message: "The custom range cannot end after today.", range: fallback };
  if (daysBetween(from, to) > MAX_RANGE_DAYS) return { ok: false, message: "A custom range can cover at most two years.", range: fallback };
  return { ok: true, range: make("custom", from, to) };
}

// One formatter each (a year's range labels 365 days: making a formatter per label was most of the render).
const DAY_LABEL = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", dateStyle: "medium" });
const HOUR_LABEL = new Intl.DateTimeFormat("en-CA", { timeZone: FIRM_TIME_ZONE, hour: "numeric", timeZoneName: "short" });

/** "Mar 8, 2026" for a Toronto day. */
export function dayLabel(day: string): string {
  return DAY_LABEL.format(new Date(`${day}T12:00:00Z`));
}

const DAY_TICK = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", month: "short", day: "numeric" });

/** "Mar 8" for a Toronto day: the chart's axis, where the year would crowd the labels (the table beside it has it). */
export function dayTick(day: string): string {
  return DAY_TICK.format(new Date(`${day}T12:00:00Z`));
}

/** "3 a.m. EST" (with its zone: the clocks change on two days a year) for an hour's start, in Toronto. */
export function hourLabel(hour: Date): string {
  return HOUR_LABEL.format(hour);
}

/** "+12 %" / "−5 %" / "new" / "" for a figure against the previous period's. */
export function changeText(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? "no change" : "new";
  const change = Math.round(((current - previous) / previous) * 100);
  if (change === 0) return "no change";
  return `${change > 0 ? "+" : "−"}${Math.abs(change)} %`;
}

/** "1 min 05 s" for an average time on page. */
export function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/**
 * Small pure rules of the public site: article filters and tabs from the URL,
 * the links that keep them, the opening-hours line, loading texts, meta tags.
 */
import { ARTICLE_FILTERS, PRACTICE_AREAS, type ArticleFilter, type PracticeArea } from "./practice";

/** The filter of /insights from `?category=`: anything unknown is "all". */
export function parseArticleFilter(raw: string | null | undefined): ArticleFilter {
  const value = (raw ?? "").trim().toLowerCase();
  return (ARTICLE_FILTERS as readonly string[]).includes(value) ? (value as ArticleFilter) : "all";
}

/** The URL of one page of /insights; "all" and page 1 are left out; `author` (a lawyer's slug) keeps the author filter. */
export function insightsHref(filter: ArticleFilter, page = 1, author?: string | null): string {
  const params = new URLSearchParams();
  if (author) params.set("author", author);
  if (filter !== "all") params.set("category", filter);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/insights?${query}` : "/insights";
}

/** The first name of a full name ("Insights by Ada"). */
export function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? "";
}

export const PRACTICE_TABS = ["overview", "team", "insights"] as const;
export type PracticeTab = (typeof PRACTICE_TABS)[number];

export function parsePracticeTab(raw: string | null | undefined): PracticeTab {
  const value = (raw ?? "").trim().toLowerCase();
  return (PRACTICE_TABS as readonly string[]).includes(value) ? (value as PracticeTab) : "overview";
}

/** The URL of a practice page tab (overview is the bare path); page only on insights. */
export function practiceHref(path: string, tab: PracticeTab, page = 1): string {
  if (tab === "overview") return path;
  return page > 1 && tab === "insights" ? `${path}?tab=${tab}&page=${page}` : `${path}?tab=${tab}`;
}

/** The practice area of a URL path ("/cyber" -> "cyber"), or undefined. */
export function practiceAreaOfPath(pathname: string): PracticeArea | undefined {
  const first = pathname.replace(/^\/+/, "").split("/")[0]?.toLowerCase() ?? "";
  return (PRACTICE_AREAS as readonly string[]).includes(first) ? (first as PracticeArea) : undefined;
}

/** The top bar's opening hours: "Monday to Friday, 9:00 to 5:00". */
export function weekdayHoursText(hours: { start_time: string; end_time: string }): string {
  return `Monday to Friday, ${hours.start_time.trim() || "9:00"} to ${hours.end_time.trim() || "5:00"}`;
}

export const LOADING = {
  team: "Loading team members...",
  articles: "Loading articles...",
  article: "Loading article...",
  generic: "Loading...",
} as const;

/**
 * The loading text shown while a client navigation to `target` is pending
 * (SPEC §2), or null when the current page stays visible.
 */
export function loadingTextFor(target: { pathname: string; search: string }): string | null {
  const path = target.pathname.replace(/\/+$/, "") || "/";
  if (path === "/team") return LOADING.team;
  if (path === "/insights") return LOADING.articles;
  if (path.startsWith("/post/")) return LOADING.article;
  if (path.startsWith("/lawyer/")) return LOADING.generic;
  if (practiceAreaOfPath(path) && path.split("/").length === 2) {
    const tab = parsePracticeTab(new URLSearchParams(target.search).get("tab"));
    if (tab === "team") return LOADING.team;
    if (tab === "insights") return LOADING.articles;
    return LOADING.generic;
  }
  return null;
}

/** Title, description and canonical link of a page. */
export function pageMeta(options: { title: string; description: string; siteUrl?: string; path: string }) {
  const base = (options.siteUrl ?? "").replace(/\/+$/, "");
  const tags: Array<Record<string, string>> = [
    { title: options.title },
    { name: "description", content: options.description },
    { property: "og:title", content: options.title },
    { property: "og:description", content: options.description },
    { property: "og:type", content: "website" },
  ];
  if (base) {
    tags.push({ tagName: "link", rel: "canonical", href: `${base}${options.path}` });
    tags.push({ property: "og:url", content: `${base}${options.path}` });
  }
  return tags;
}

/** Trims text to a description of at most `max` characters, on a word boundary. */
export function shortDescription(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > 60 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

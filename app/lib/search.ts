/**
 * The site search's pure rules (app/.server/db/search.ts runs the query;
 * the /search page renders with these): kinds, limits, how typed text
 * becomes words, and how highlighted text is split into marks.
 */
export const SEARCH_KINDS = ["all", "lawyers", "insights", "practice"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export type ResultKind = Exclude<SearchKind, "all">;

export const SEARCH_PAGE_SIZE = 10;
/** Characters of a query that are read; the rest is ignored (the page says so). */
export const MAX_QUERY_LENGTH = 200;
/** Words of a query that are searched. */
export const MAX_TERMS = 8;
/** A last word this long or longer is also matched as a prefix. */
export const PREFIX_MIN = 3;
/** Private-use characters that ts_headline puts around matched words (never shown). */
export const MARK_START = "\uE000";
export const MARK_END = "\uE001";

export function parseSearchKind(raw: string | null | undefined): SearchKind {
  return (SEARCH_KINDS as readonly string[]).includes(raw ?? "") ? (raw as SearchKind) : "all";
}

/** The words searched for: letters and digits only, lower case, at most MAX_TERMS. */
export function searchTerms(raw: string): string[] {
  const text = raw.slice(0, MAX_QUERY_LENGTH).normalize("NFKC").toLowerCase();
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

/**
 * The `to_tsquery` text for the terms: every word required, the last one
 * also as a prefix. Safe by construction: the terms hold only letters and
 * digits, so no operator, quote or parenthesis reaches the parser.
 */
export function tsQueryText(terms: string[]): string {
  return terms.map((t, i) => (i === terms.length - 1 && t.length >= PREFIX_MIN ? `${t}:*` : t)).join(" & ");
}

export type HighlightPart = { text: string; mark: boolean };

/** Splits `ts_headline` output into plain and marked parts (markers are private-use characters). */
export function highlightParts(marked: string): HighlightPart[] {
  const parts: HighlightPart[] = [];
  let rest = marked;
  while (rest) {
    const start = rest.indexOf(MARK_START);
    if (start === -1) {
      parts.push({ text: rest.replaceAll(MARK_END, ""), mark: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start).replaceAll(MARK_END, ""), mark: false });
    const end = rest.indexOf(MARK_END, start + 1);
    const inner = rest.slice(start + 1, end === -1 ? undefined : end).replaceAll(MARK_START, "");
    if (inner) parts.push({ text: inner, mark: true });
    rest = end === -1 ? "" : rest.slice(end + 1);
  }
  return parts;
}

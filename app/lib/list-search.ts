/**
 * The search of a dashboard list (the `q` of Manage Team, Articles and
 * Events, Redirects, Subscribers, an event's registrations and its export):
 * read one way for every list and its form.
 */

/** The longest search a list takes; its box (components/admin/search-form.tsx) takes no more. */
export const SEARCH_MAX_LENGTH = 200;

/**
 * The search as a list uses it: control characters become spaces (PostgreSQL
 * refuses a NUL in text, which would answer a 500), the ends trimmed, at most
 * SEARCH_MAX_LENGTH characters. Nothing given is the empty search.
 */
export function listSearch(value: string | null | undefined): string {
  return (
    (value ?? "")
      // eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern removes.
      .replace(/[\u0000-\u001f\u007f]/g, " ")
      .trim()
      .slice(0, SEARCH_MAX_LENGTH)
  );
}

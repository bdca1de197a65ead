/**
 * How redirects compare addresses, and what a redirect may point to
 * (decision 0025). Pure: no database.
 *
 * - A path is compared in one canonical form: percent-decoded once,
 *   lower-cased, without its trailing slash ("/2021/03/Caf%C3%A9/" and
 *   "/2021/03/café" are the same). `record_path_move` (migration 0015) makes
 *   the same form in SQL.
 * - A query is compared as its parameters sorted ("b=2&a=1" → "a=1&b=2"); a
 *   rule's query matches a request whose query contains its parameters.
 * - A target is a path on this site ("/post/x", "/insights?category=cyber"),
 *   or a full http(s) URL on another host only when a person typed it: an
 *   imported or automatic redirect never leaves the site (no open redirect).
 */

/** Longest source, target or request path considered (longer ones are never redirected). */
export const MAX_PATH = 1024;

function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The canonical form of a path (see above), or null when it is not a path. */
export function canonicalPath(raw: string): string | null {
  if (!raw || raw.length > MAX_PATH || raw[0] !== "/") return null;
  const hash = raw.indexOf("#");
  const q = raw.indexOf("?");
  let path = raw.slice(0, q === -1 ? (hash === -1 ? raw.length : hash) : q);
  path = decodeOnce(path).normalize("NFC").toLowerCase();
  if (/[\p{Cc}]/u.test(path) || path.startsWith("//")) return null;
  if (path.length > 1) path = path.replace(/\/+$/, "") || "/";
  return path;
}

/** The forms a request's raw path may arrive in for a canonical path: as is, percent-encoded, each with and without a trailing slash. */
export function pathKeys(canonical: string): string[] {
  const encoded = encodeURI(canonical);
  const forms = [canonical, encoded];
  if (canonical !== "/") forms.push(`${canonical}/`, `${encoded}/`);
  return [...new Set(forms)];
}

/** A query's parameters, sorted ("" for none): how a rule's query is kept and compared. */
export function canonicalQuery(search: string): string {
  const params = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search);
  const pairs = [...params].filter(([k]) => k !== "").sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return new URLSearchParams(pairs).toString();
}

/** The queries a request's query may be found under among rules: the whole of it, then each parameter alone. */
export function queryKeys(search: string): string[] {
  const whole = canonicalQuery(search);
  if (!whole) return [];
  const singles = whole.split("&");
  return singles.length > 1 ? [whole, ...singles] : [whole];
}

export type TargetCheck = { ok: true; target: string; external: boolean } | { ok: false; message: string };

/**
 * A rule's target, checked: a same-site path (an address on this site's own
 * host is turned into its path), or, when `allowOtherHost` (a person typed
 * the rule), a full http(s) URL on another host.
 */
export function checkTarget(input: string, options: { allowOtherHost: boolean; siteOrigin: string }): TargetCheck {
  const target = input.trim();
  if (!target) return { ok: false, message: "Enter where the old address should go: a path such as /insights, or a full address." };
  if (target.length > MAX_PATH) return { ok: false, message: `The target is longer than ${MAX_PATH} characters.` };
  if (/[\p{Cc}\s]/u.test(target)) return { ok: false, message: "The target cannot contain spaces or control characters." };
  if (target.startsWith("/")) {
    if (target.startsWith("//") || target.startsWith("/\\")) {
      return { ok: false, message: "A target that starts with // is another site's address: write it in full, with https://." };
    }
    return { ok: true, target, external: false };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, message: "The target must be a path that starts with / or a full address that starts with https://." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, message: "A full address must start with https:// or http://." };
  }
  if (url.username || url.password) return { ok: false, message: "The target cannot contain a user name or password." };
  if (url.origin === new URL(options.siteOrigin).origin) return { ok: true, target: `${url.pathname}${url.search}`, external: false };
  if (!options.allowOtherHost) {
    return { ok: false, message: `Only addresses on this site can be imported as targets; ${url.host} is another site.` };
  }
  return { ok: true, target: url.toString(), external: true };
}

/**
 * A regex rule's target with `$1`… filled in from its match. A same-site
 * target stays same-site whatever the captured text holds ("//evil.example"
 * or "/\evil" are refused: null); an external target keeps its host.
 */
export function fillTarget(target: string, groups: readonly (string | undefined)[]): string | null {
  const filled = target.replace(/\$(\d)/g, (_m, n: string) => groups[Number(n)] ?? "");
  if (target.startsWith("/")) {
    if (!filled.startsWith("/") || filled.startsWith("//") || filled.startsWith("/\\") || /[\p{Cc}]/u.test(filled)) return null;
    return filled;
  }
  try {
    const before = new URL(target.replace(/\$\d/g, ""));
    const after = new URL(filled);
    return after.host === before.host && after.protocol === before.protocol ? after.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Route patterns as React Router writes them ("/lawyer/:slug",
 * "/subscribe/confirm/:token", "/*"), read as plain data: which paths a
 * pattern matches, and which patterns carry a secret in their path.
 *
 * A secret parameter (`:token`, `:key`, `:code` and the like: `isSecretParam`) is a link sent to one person: a path that
 * matches such a route must never be stored or shown (the 404 log, visit
 * statistics). `secretParams` / `isSecretRoutePath` are the one place that
 * says so; callers give them the route table's patterns
 * (app/.server/http/route-table.ts `routeTable`, or app/routes.ts), whose
 * `routeMatcher` reads the patterns with `patternRegex` too.
 */

/**
 * Whether a route parameter's name says it holds a secret (a token, a key, a
 * code, a signature…): its value must never reach a log, the statistics or
 * another screen. Checked for every route by tests/integration/route-secrets.test.ts.
 */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

const SECRET_PARAM = /token|key|code|secret|signature|sig$|hash|password|nonce|otp|invite|invitation|reset/i;

/** The parameters of a pattern ("/subscribe/confirm/:token" → ["token"]; a splat is "*"). */
export function patternParams(pattern: string): string[] {
  // A parameter's name is letters, digits, "_" and "-" (React Router's rule): ":slug.ics" is the parameter "slug".
  return pattern
    .split("/")
    .flatMap((part) => (part.startsWith(":") ? [/^:([\w-]+)/.exec(part)?.[1] ?? part.slice(1)] : part === "*" ? ["*"] : []));
}

/** The secret parameters of one route pattern ("/admin/reset-password/:token" → ["token"]). */
export function secretParams(pattern: string): string[] {
  return patternParams(pattern).filter(isSecretParam);
}

/**
 * The one reading of a route pattern as a regular expression over a request's
 * path (no query), as React Router reads it: the 404 log's and the request
 * log's secret paths and the WordPress importer's site paths here, the route
 * a path goes to in route-table.ts `routeMatcher`. `:name` is any text up to
 * the next slash and what follows the name is literal (":slug.ics" matches
 * "x.ics"); `:name?` may be left out; `*` is the rest of the path or nothing
 * ("/files/*" matches "/files"; "/*" matches every path); the path may end in
 * any number of slashes ("/team//" is /team, "//" is /). Letter case is
 * ignored unless the route says `caseSensitive`.
 */
export function patternRegex(pattern: string, caseSensitive = false): RegExp {
  const source = pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (segment === "*") return "(?:/.*)?";
      const param = /^:[\w-]+/.exec(segment)?.[0];
      if (!param) return `/${escapeRegex(segment)}`;
      if (segment === `${param}?`) return "(?:/[^/]+)?";
      return `/[^/]+${escapeRegex(segment.slice(param.length))}`;
    })
    .join("");
  return new RegExp(`^${source}/*$`, caseSensitive ? "" : "i");
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The catch-all route ("/*"): it answers every path, with the not-found page. */
const isCatchAll = (pattern: string) => pattern === "/*" || pattern === "*";

/**
 * A test for paths that match a route with a secret parameter (given every
 * pattern of the route table): true means "never store this path".
 */
export function isSecretRoutePath(patterns: readonly string[]): (path: string) => boolean {
  const secret = patterns.filter((p) => secretParams(p).length > 0).map((p) => patternRegex(p));
  return (path) => secret.some((r) => r.test(path));
}

/**
 * For the request log: the pattern of the route with a secret parameter that
 * a path matches ("/event/cancel/12.x" → "/event/cancel/:token"), written in
 * place of the path; null for any other path. One combined pattern is tried
 * first: a request log line is on every request's path.
 */
export function secretRoutePattern(patterns: readonly string[]): (path: string) => string | null {
  const secret = patterns.filter((p) => secretParams(p).length > 0).map((p) => ({ pattern: p, regex: patternRegex(p) }));
  if (!secret.length) return () => null;
  const any = new RegExp(secret.map((s) => `(?:${s.regex.source})`).join("|"), "i");
  return (path) => (any.test(path) ? (secret.find((s) => s.regex.test(path))?.pattern ?? null) : null);
}

/**
 * A test for paths this site answers itself with a page or a resource (every
 * route but the catch-all): an imported redirect from such a path would hide
 * the site's own page, so it is not made.
 */
export function isSitePath(patterns: readonly string[]): (path: string) => boolean {
  const regexes = patterns.filter((p) => !isCatchAll(p)).map((p) => patternRegex(p));
  return (path) => regexes.some((r) => r.test(path));
}

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };

/** The full patterns of a route config (app/routes.ts's shape), for scripts that run without a server build. */
export function patternsOfConfig(entries: readonly RouteEntry[], prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    const here = entry.path ? `${prefix}/${entry.path}`.replace(/\/+/g, "/") : prefix;
    if (entry.path || entry.index) out.push(here || "/");
    if (entry.children) out.push(...patternsOfConfig(entry.children, here));
  }
  return [...new Set(out)];
}

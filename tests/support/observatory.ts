/**
 * Scores response headers the way the MDN HTTP Observatory does (its published
 * "Tests & Scoring" table): start at 100, subtract penalties, then add bonuses
 * only when the result is 90 or more. Redirection (http→https) is the TLS
 * proxy's job and is scored as "not needed"; SRI as "all scripts same origin".
 */
export type ScoreResult = { score: number; results: Record<string, { result: string; modifier: number }> };

function parseCsp(header: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && !map.has(name.toLowerCase())) map.set(name.toLowerCase(), values);
  }
  return map;
}

function csp(headers: Headers) {
  const header = headers.get("content-security-policy");
  if (!header) return { result: "csp-not-implemented", modifier: -25 };
  const d = parseCsp(header);
  const fallback = d.get("default-src");
  const script = d.get("script-src") ?? fallback;
  const object = d.get("object-src") ?? fallback;
  const style = d.get("style-src") ?? fallback;
  const broad = (v: string[] | undefined) => !v || v.some((s) => ["*", "http:", "https:", "data:", "'unsafe-inline'"].includes(s));
  const hasNonceOrHash = script?.some((s) => /^'(nonce|sha(256|384|512))-/.test(s));
  const scriptUnsafe =
    !script || script.some((s) => ["*", "http:", "https:", "data:"].includes(s)) || (script.includes("'unsafe-inline'") && !hasNonceOrHash);
  if (scriptUnsafe || broad(object)) return { result: "csp-implemented-with-unsafe-inline", modifier: -20 };
  if ([...d.values()].some((v) => v.includes("'unsafe-eval'"))) return { result: "csp-implemented-with-unsafe-eval", modifier: -10 };
  if (style?.some((s) => ["'unsafe-inline'", "data:", "https:", "*"].includes(s))) {
    return { result: "csp-implemented-with-unsafe-inline-in-style-src-only", modifier: 0 };
  }
  if (fallback?.length === 1 && fallback[0] === "'none'")
    return { result: "csp-implemented-with-no-unsafe-default-src-none", modifier: 10 };
  return { result: "csp-implemented-with-no-unsafe", modifier: 5 };
}

function cookies(setCookies: string[]) {
  if (!setCookies.length) return { result: "cookies-not-found", modifier: 0 };
  const all = setCookies.map((c) => c.toLowerCase());
  if (all.some((c) => !/;\s*secure/.test(c))) return { result: "cookies-session-without-secure-flag", modifier: -40 };
  if (all.some((c) => !/;\s*httponly/.test(c))) return { result: "cookies-session-without-httponly-flag", modifier: -30 };
  if (all.some((c) => /;\s*samesite=(?!lax|strict)/.test(c))) return { result: "cookies-samesite-flag-invalid", modifier: -20 };
  if (all.every((c) => /;\s*samesite=(lax|strict)/.test(c)))
    return { result: "cookies-secure-with-httponly-sessions-and-samesite", modifier: 5 };
  return { result: "cookies-secure-with-httponly-sessions", modifier: 0 };
}

function hsts(headers: Headers) {
  const h = headers.get("strict-transport-security");
  if (!h) return { result: "hsts-not-implemented", modifier: -20 };
  const maxAge = Number(/max-age=(\d+)/i.exec(h)?.[1] ?? NaN);
  if (Number.isNaN(maxAge)) return { result: "hsts-header-invalid", modifier: -20 };
  return maxAge >= 15768000
    ? { result: "hsts-implemented-max-age-at-least-six-months", modifier: 0 }
    : { result: "hsts-implemented-max-age-less-than-six-months", modifier: -10 };
}

function referrer(headers: Headers) {
  const h = headers.get("referrer-policy")?.split(",").pop()?.trim().toLowerCase();
  if (!h) return { result: "referrer-policy-not-implemented", modifier: 0 };
  if (["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"].includes(h))
    return { result: "referrer-policy-private", modifier: 5 };
  if (["origin", "origin-when-cross-origin", "unsafe-url"].includes(h)) return { result: "referrer-policy-unsafe", modifier: -5 };
  return { result: "referrer-policy-header-invalid", modifier: -5 };
}

function xcto(headers: Headers) {
  const h = headers.get("x-content-type-options");
  if (!h) return { result: "x-content-type-options-not-implemented", modifier: -5 };
  return h.trim().toLowerCase() === "nosniff"
    ? { result: "x-content-type-options-nosniff", modifier: 0 }
    : { result: "x-content-type-options-header-invalid", modifier: -5 };
}

function xfo(headers: Headers) {
  const policy = headers.get("content-security-policy");
  const fa = policy ? parseCsp(policy).get("frame-ancestors") : undefined;
  if (fa && !fa.includes("*")) return { result: "x-frame-options-implemented-via-csp", modifier: 5 };
  const h = headers.get("x-frame-options")?.toLowerCase();
  if (!h) return { result: "x-frame-options-not-implemented", modifier: -20 };
  return h === "deny" || h === "sameorigin"
    ? { result: "x-frame-options-sameorigin-or-deny", modifier: 0 }
    : { result: "x-frame-options-header-invalid", modifier: -20 };
}

function cors(headers: Headers) {
  const h = headers.get("access-control-allow-origin");
  if (!h) return { result: "cross-origin-resource-sharing-not-implemented", modifier: 0 };
  return h.trim() === "*"
    ? { result: "cross-origin-resource-sharing-implemented-with-public-access", modifier: 0 }
    : { result: "cross-origin-resource-sharing-implemented-with-restricted-access", modifier: 0 };
}

export function observatoryScore(headers: Headers): ScoreResult {
  const results = {
    "content-security-policy": csp(headers),
    cookies: cookies(headers.getSetCookie()),
    "cross-origin-resource-sharing": cors(headers),
    redirection: { result: "redirection-not-needed-no-http", modifier: 0 },
    "referrer-policy": referrer(headers),
    "strict-transport-security": hsts(headers),
    "subresource-integrity": { result: "sri-not-implemented-but-all-scripts-loaded-from-secure-origin", modifier: 0 },
    "x-content-type-options": xcto(headers),
    "x-frame-options": xfo(headers),
  };
  const modifiers = Object.values(results).map((r) => r.modifier);
  let score = 100 + modifiers.filter((m) => m < 0).reduce((a, b) => a + b, 0);
  if (score >= 90) score += modifiers.filter((m) => m > 0).reduce((a, b) => a + b, 0);
  return { score: Math.max(0, score), results };
}

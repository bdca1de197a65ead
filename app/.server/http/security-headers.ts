/** Security headers sent with every response (see docs/security.md). */
import { getEnv } from "../env";

export const MAP_ORIGIN = "https://www.google.com";

/**
 * The Content-Security-Policy. Scripts: our own files ('self') plus inline
 * scripts allowed either by this response's nonce (dynamic pages) or by
 * their SHA-256 hashes (cached public pages). No 'unsafe-inline' for scripts.
 */
export function contentSecurityPolicy(scriptSources: string[]): string {
  const dev = getEnv().NODE_ENV === "development";
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    `frame-src ${MAP_ORIGIN} https://maps.google.com`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (!dev && getEnv().publicUrl.startsWith("https://")) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Headers for every response except the CSP, which depends on the response. */
export function baseSecurityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  if (getEnv().NODE_ENV === "production") {
    headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  }
  return headers;
}

export function securityHeaders(nonce: string): Record<string, string> {
  return { ...baseSecurityHeaders(), "Content-Security-Policy": contentSecurityPolicy([`'nonce-${nonce}'`]) };
}

/** Security headers sent with every response (see docs/security.md). */
import { getEnv } from "./env";

export const MAP_ORIGIN = "https://www.google.com";

export function contentSecurityPolicy(nonce: string, dev = getEnv().NODE_ENV === "development"): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self' 'unsafe-inline'",
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

export function securityHeaders(nonce: string): Record<string, string> {
  const env = getEnv();
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(nonce),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  if (env.NODE_ENV === "production") {
    headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains; preload";
  }
  return headers;
}

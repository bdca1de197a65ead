/**
 * A subscriber's preferences link, signed so that it works without signing
 * in (HMAC-SHA256 with the site's secret, AUTH_SECRET): the subscriber's id,
 * an expiry (PREFERENCES_LIFETIME_MS, at least 60 days, renewed by every
 * message) and the signature over both and the address. After an erasure the
 * address is gone, so no old link opens anything.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "../env";
import { absoluteUrl } from "../http/site-url";

/** Each message carries a link valid this long (CASL asks for at least 60 days). */
export const PREFERENCES_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000;

function sign(payload: string, email: string): string {
  return createHmac("sha256", getEnv().authSecret).update(`subscriber-preferences:${payload}:${email}`).digest("base64url").slice(0, 32);
}

export function preferencesToken(subscriber: { id: number; email: string }, now = Date.now()): string {
  const payload = `${subscriber.id.toString(36)}.${(now + PREFERENCES_LIFETIME_MS).toString(36)}`;
  return `${payload}.${sign(payload, subscriber.email)}`;
}

/** The subscriber id a token names (not yet checked against the address: see `checkPreferencesToken`). */
export function tokenSubscriberId(token: string): number | null {
  const match = /^([0-9a-z]{1,12})\.[0-9a-z]{1,12}\.[A-Za-z0-9_-]{32}$/.exec(token);
  return match ? parseInt(match[1], 36) : null;
}

/** Whether the token was signed for this subscriber and has not expired. */
export function checkPreferencesToken(token: string, subscriber: { id: number; email: string }, now = Date.now()): boolean {
  const match = /^(([0-9a-z]{1,12})\.([0-9a-z]{1,12}))\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match || parseInt(match[2], 36) !== subscriber.id) return false;
  const expected = Buffer.from(sign(match[1], subscriber.email));
  const given = Buffer.from(match[4]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return parseInt(match[3], 36) > now;
}

export function preferencesUrl(subscriber: { id: number; email: string }, now = Date.now()): string {
  return absoluteUrl(`/subscribe/preferences/${preferencesToken(subscriber, now)}`);
}

/** The RFC 8058 one-click address (List-Unsubscribe): a POST there unsubscribes at once, without cookies. */
export function oneClickUrl(subscriber: { id: number; email: string }, now = Date.now()): string {
  return absoluteUrl(`/subscribe/one-click/${preferencesToken(subscriber, now)}`);
}

export function confirmUrl(token: string): string {
  return absoluteUrl(`/subscribe/confirm/${token}`);
}

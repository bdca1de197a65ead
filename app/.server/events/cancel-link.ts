/**
 * An event registration's cancel link (issue 45), signed so that every
 * e-mail to the registrant carries the same working link without the link
 * being stored: the registration's id and an HMAC-SHA256 (the site's secret,
 * AUTH_SECRET) of the id and the registration's random nonce
 * (`event_registrations.cancel_nonce`). The nonce is renewed when a cancelled
 * registration is taken up again or erased, so a link sent for an earlier
 * registration of the same row never cancels a later one.
 *
 * Links sent before links were signed are random tokens of which only the
 * SHA-256 is kept (`cancel_token_hash`); db/events.ts still honours them.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "../env";

const SIGNED = /^([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/;

function sign(id: number, nonce: string): string {
  return createHmac("sha256", getEnv().authSecret).update(`event-cancel:${id}:${nonce}`).digest("base64url");
}

/** The cancel link's token for a registration: "<id>.<signature>". */
export function cancelToken(registration: { id: number; cancel_nonce: string }): string {
  return `${registration.id}.${sign(registration.id, registration.cancel_nonce)}`;
}

/** The registration id a signed token names (not yet checked: see `checkCancelToken`); null for any other shape. */
export function cancelTokenId(token: string): number | null {
  const match = SIGNED.exec(token);
  return match ? Number(match[1]) : null;
}

/** Whether the token was signed for this registration as it is now (its id and its current nonce); compared in constant time. */
export function checkCancelToken(token: string, registration: { id: number; cancel_nonce: string }): boolean {
  const match = SIGNED.exec(token);
  if (!match || Number(match[1]) !== registration.id) return false;
  const expected = Buffer.from(sign(registration.id, registration.cancel_nonce));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

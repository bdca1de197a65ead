/**
 * The public forms' spam defence (the enquiry form, decision 0009, the
 * subscribe form and the event registration form), without an outside service; the honeypot field is in
 * lib/forms/enquiry.ts.
 *
 * The timing token: the earliest moment the form may be sent,
 * signed (HMAC-SHA256 with the site's secret) so it cannot be made up.
 * A form sent sooner (a robot filling it in at once) is not accepted.
 *
 * The pages holding the form are shared: the page cache (and a CDN) keep them
 * at most FORM_PAGE_SHARED_SECONDS (their route says `s-maxage`, decision
 * 0009). Every token, in a shared page or in the answer to a POST, allows
 * sending MIN_FILL_SECONDS after the render (issue 42: a person is never
 * asked to wait longer than a fast typist needs). A copy served late in its
 * short shared life leaves its visitor less than that: the minimum time is
 * weaker for them, never a refusal (the honeypot and the per-address limit
 * still stand).
 *
 * The per-address limit: each sending is counted under a keyed hash of the
 * sender's IP address (never the address itself; db/enquiries.ts
 * `recordAttempt`, ENQUIRY_LIMIT_PER_HOUR), each form's sendings apart.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { recordAttempt } from "../db/enquiries";
import { getEnv } from "../env";
import { requestInfo, type RequestContext } from "../http/request-context";

/** A person takes at least this long between seeing the form and sending it (at most 3 s: issue 42). */
export const MIN_FILL_SECONDS = 3;
/** How long the page cache or a CDN may keep a page holding the form. */
export const FORM_PAGE_SHARED_SECONDS = 5;
/** A token older than this (a tab left open for a day) asks for the form to be sent again. */
export const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Cache-Control of a GET page holding the form (the page cache reads its s-maxage too). */
export const FORM_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${FORM_PAGE_SHARED_SECONDS}`;
/** Cache-Control of the answer to a POST of the form: never stored anywhere. */
export const FORM_ANSWER_CACHE_CONTROL = "private, no-store";

function sign(payload: string): string {
  return createHmac("sha256", getEnv().authSecret).update(`enquiry-form:${payload}`).digest("base64url").slice(0, 27);
}

/** A token for a page holding the form (shared or not): it allows sending MIN_FILL_SECONDS after `now`. */
export function issueFormToken(now = Date.now()): string {
  const notBefore = now + MIN_FILL_SECONDS * 1000;
  const payload = `1.${notBefore.toString(36)}`;
  return `${payload}.${sign(payload)}`;
}

export type TokenCheck = "ok" | "early" | "expired" | "invalid";

export function checkFormToken(token: unknown, now = Date.now()): TokenCheck {
  if (typeof token !== "string" || token.length > 100) return "invalid";
  const match = /^(1\.([0-9a-z]{1,12}))\.([A-Za-z0-9_-]{27})$/.exec(token);
  if (!match) return "invalid";
  const expected = Buffer.from(sign(match[1]));
  const given = Buffer.from(match[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  const notBefore = parseInt(match[2], 36);
  if (!Number.isFinite(notBefore)) return "invalid";
  if (now < notBefore) return "early";
  if (now - notBefore > TOKEN_LIFETIME_MS) return "expired";
  return "ok";
}

/** A keyed hash of the sender's IP address: enough to count, not the address. */
export function addressKey(ip: string): string {
  return createHmac("sha256", getEnv().authSecret)
    .update(`enquiry-address:${ip || "unknown"}`)
    .digest("base64url")
    .slice(0, 32);
}

/**
 * Counts one sending of the form from the request's address and answers
 * whether it is within the hourly limit (this one included). Throws when the
 * database does not answer: the caller says so and stores nothing.
 */
export async function withinSendingLimit(form: "enquiry" | "subscribe" | "event", context: RequestContext): Promise<boolean> {
  const key = addressKey(requestInfo(context).clientIp);
  return (await recordAttempt(form === "enquiry" ? key : `${form}:${key}`)).allowed;
}

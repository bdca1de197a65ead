/**
 * Insight subscriptions (issue 31, CASL): the topics, the consent wording
 * (kept word for word with each consent record, with its version), the
 * sign-up and preferences forms' schemas and the pages' messages. Pure.
 */
import { z } from "zod";
import { FIRM, fullAddress } from "~/config/firm";
import { PRACTICE_AREAS, PRACTICE_TITLES } from "../practice";
import { text } from "./fields";

export const SUBSCRIPTION_TOPICS = [...PRACTICE_AREAS, "news"] as const;
export type SubscriptionTopic = (typeof SUBSCRIPTION_TOPICS)[number];
export const TOPIC_LABELS: Record<SubscriptionTopic, string> = { ...PRACTICE_TITLES, news: "Firm news" };

export function isTopic(value: unknown): value is SubscriptionTopic {
  return typeof value === "string" && (SUBSCRIPTION_TOPICS as readonly string[]).includes(value);
}

export const SUBSCRIBER_STATUSES = ["pending", "confirmed", "unsubscribed", "bounced"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];
export const SUBSCRIBER_STATUS_LABELS: Record<SubscriberStatus, string> = {
  pending: "Pending confirmation",
  confirmed: "Confirmed",
  unsubscribed: "Unsubscribed",
  bounced: "Bounced",
};

/** Bump the version whenever the wording changes: each record keeps the wording and version it was given under. */
export const CONSENT_VERSION = "2026-11-28";
/** Who asks, for what, and that consent may be withdrawn (CASL s. 10(1)): shown beside the box, stored with each consent. */
export const CONSENT_WORDING =
  `I agree to receive e-mail from ${FIRM.name} (${fullAddress()}; ${FIRM.phone}; ${FIRM.email}) about the topics I have chosen: ` +
  `legal insights, client alerts and, if chosen, firm news. I can withdraw my consent at any time through the link in every message ` +
  `or by writing to ${FIRM.email}.`;

export const SUBSCRIBE_FIELDS = { email: "email", topics: "topics", consent: "consent" } as const;

export const SUBSCRIBE_MSG = {
  checkFields: "Please correct the highlighted fields.",
  topics: "Choose at least one topic.",
  consent: "Please tick the box to give your consent. We cannot send you anything without it.",
  /** The one answer for every address, new, pending, confirmed or unsubscribed: nobody learns who subscribes. */
  sent: "Thank you. If this address can be subscribed, we have sent it an e-mail with a link to confirm. Nothing will be sent until you confirm. The link works for 48 hours.",
  refused: `Thank you. We could not accept this request through the form. Please e-mail ${FIRM.email} or call ${FIRM.phone}.`,
  /** The timing token was missing, too old or too early (decision 0009): nothing was sent, everything is kept, one press sends it. */
  again: "Your request has not been sent yet. Everything you entered is still here: please press Subscribe once more to send it.",
  unreadable: "The form could not be read. Please try again.",
  tooLarge: "The form is too large to send. Please enter one e-mail address only.",
  storeError: `Your request could not be recorded because of a problem on our side. Please try again in a few minutes.`,
  confirmed: "Thank you. Your subscription is confirmed.",
  expired: "This confirmation link has expired (links work for 48 hours). Please subscribe again to receive a new link.",
  used: "This confirmation link has already been used. Your choice was recorded when it was first opened.",
  invalid: "This confirmation link is not valid. Please check that the whole link was copied, or subscribe again.",
  preferencesSaved: "Your preferences are saved.",
  unsubscribed: "You are unsubscribed. We will not send you any more insights or alerts.",
  preferencesInvalid: "This preferences link is not valid or has expired. Use the link in a more recent message, or write to us.",
  /** RFC 5321: at most 254 characters in all, 64 before the @. */
  addressTooLong: "This e-mail address is too long to be delivered: at most 254 characters in all, and 64 before the @.",
} as const;

/** The longest address RFC 5321 lets through (a path of 256 less its angle brackets), and the longest local part. */
export const MAX_ADDRESS_LENGTH = 254;
export const MAX_LOCAL_PART_LENGTH = 64;

/** Whether an address is longer than RFC 5321 allows (in all, or before its last @). */
export function addressTooLong(address: string): boolean {
  const at = address.lastIndexOf("@");
  return address.length > MAX_ADDRESS_LENGTH || (at >= 0 ? at : address.length) > MAX_LOCAL_PART_LENGTH;
}

/** Gmail ignores dots in the local part (googlemail.com is the same service). */
const DOTLESS_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The mailbox an address delivers to, as far as the limits on confirmation
 * e-mails are concerned (issue 42): lower case, without a `+tag`, and for
 * Gmail without dots (googlemail.com counted as gmail.com). So `V.ictim+1@Gmail.com`
 * and `victim@googlemail.com` are one mailbox. Only for counting: mail goes
 * to the address as given.
 */
export function mailboxKey(address: string): string {
  const lower = normalizeAddress(address);
  const at = lower.lastIndexOf("@");
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replace(/\./g, "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

const topicsField = z
  .array(z.string())
  .transform((list) => [...new Set(list)])
  .pipe(z.array(z.enum(SUBSCRIPTION_TOPICS, { error: SUBSCRIBE_MSG.topics })).min(1, SUBSCRIBE_MSG.topics));

export const subscribeSchema = z.object({
  // The length RFC 5321 allows is checked with its own message (text()'s cap is only a bound on the work).
  email: text("E-mail", 2000)
    .refine((address) => !addressTooLong(address), SUBSCRIBE_MSG.addressTooLong)
    .pipe(z.email("Enter a valid e-mail address, such as name@example.com.")),
  topics: topicsField,
  consent: z.literal("yes", { error: SUBSCRIBE_MSG.consent }),
});
export type SubscribeInput = z.infer<typeof subscribeSchema>;

export const preferencesSchema = z.object({ topics: topicsField });

export type SubscribeValues = { email: string; topics: string[]; consent: boolean };
export const EMPTY_SUBSCRIBE: SubscribeValues = { email: "", topics: [], consent: false };

/** The address as it is kept and compared: trimmed, lower-cased. */
export function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}

export function topicList(topics: readonly string[]): string {
  return topics.map((t) => (isTopic(t) ? TOPIC_LABELS[t] : t)).join(", ");
}

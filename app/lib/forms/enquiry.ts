/**
 * The public enquiry form (/contact and the home page's contact section) and
 * the staff's enquiry form (state and note), with their messages. Pure: used
 * by the pages and by the actions.
 */
import { z } from "zod";
import { FIRM } from "~/config/firm";
import { PRACTICE_AREAS, PRACTICE_TITLES } from "../practice";
import { hasNoNul, nulMessage, text } from "./fields";

/** What a visitor can choose as the subject of an enquiry. */
export const ENQUIRY_AREAS = [...PRACTICE_AREAS, "other"] as const;
export type EnquiryArea = (typeof ENQUIRY_AREAS)[number];
export const ENQUIRY_AREA_LABELS: Record<EnquiryArea, string> = { ...PRACTICE_TITLES, other: "Something else / not sure" };

export const ENQUIRY_MESSAGE_MAX = 5000;
export const ENQUIRY_MESSAGE_MIN = 10;

/** The form's field names (the honeypot and the timing token are not part of the schema). */
export const ENQUIRY_FIELDS = ["name", "email", "phone", "practice_area", "message", "consent"] as const;
/** A field no person sees or fills (hidden from view and from assistive technology); a filled one is a robot. */
export const HONEYPOT_FIELD = "reference_code";
export const TOKEN_FIELD = "form_token";

export const ENQUIRY_MSG = {
  checkFields: "Please correct the highlighted fields.",
  consent: "Please tick the box to confirm you have read the notice above.",
  area: "Choose the area your enquiry is about.",
  phone: "Enter a phone number using digits, spaces and + ( ) - only, or leave it empty.",
  messageShort: `Please describe your enquiry in at least ${ENQUIRY_MESSAGE_MIN} characters.`,
  sent: "Thank you. Your enquiry has been sent. A lawyer will reply, usually within one business day.",
  /** The neutral answer to a refused message (never says why). */
  refused: `Thank you. We could not accept this message through the form. Please call us at ${FIRM.phone} or e-mail ${FIRM.email}.`,
  /** The timing token was missing, too old or too early: nothing was sent, the person can simply send again. */
  again: "Your message has not been sent yet. Everything you entered is still here: please press Send once more to send it.",
  tooLarge: `The form is too large to send. Please shorten your message to at most ${ENQUIRY_MESSAGE_MAX.toLocaleString("en-CA")} characters.`,
  unreadable: "The form could not be read. Please try again.",
  storeError: `Your enquiry could not be sent because of a problem on our side. Please try again in a few minutes, or call us at ${FIRM.phone}.`,
} as const;

export const enquirySchema = z.object({
  name: text("Name", 200),
  email: text("E-mail", 320).pipe(z.email("Enter a valid e-mail address, such as name@example.com.")),
  phone: text("Phone", 40, { optional: true }).pipe(z.string().regex(/^[0-9+().\s-]*(\s*(ext\.?|x)\s*\d{1,6})?$/i, ENQUIRY_MSG.phone)),
  practice_area: z.enum(ENQUIRY_AREAS, { error: ENQUIRY_MSG.area }),
  message: z
    .string({ error: "Message is required." })
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, "Message is required.")
        .min(ENQUIRY_MESSAGE_MIN, ENQUIRY_MSG.messageShort)
        .max(ENQUIRY_MESSAGE_MAX, `Message must be at most ${ENQUIRY_MESSAGE_MAX} characters.`)
        .refine(hasNoNul, nulMessage("Message")),
    ),
  consent: z.literal("yes", { error: ENQUIRY_MSG.consent }),
});
export type EnquiryInput = z.infer<typeof enquirySchema>;

/** What the form shows again after a refusal or an error: everything as typed (capped). */
export type EnquiryValues = { name: string; email: string; phone: string; practice_area: string; message: string; consent: boolean };
export const EMPTY_ENQUIRY: EnquiryValues = { name: "", email: "", phone: "", practice_area: "", message: "", consent: false };

export function enquiryValuesFrom(raw: Record<string, unknown>): EnquiryValues {
  const str = (name: string, max: number) => {
    const v = raw[name];
    // eslint-disable-next-line no-control-regex -- a NUL is exactly what this removes (PostgreSQL text holds none).
    return (typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? v[0] : "").replace(/\u0000/g, "").slice(0, max);
  };
  return {
    name: str("name", 200),
    email: str("email", 320),
    phone: str("phone", 40),
    practice_area: str("practice_area", 40),
    message: str("message", ENQUIRY_MESSAGE_MAX + 1000),
    consent: str("consent", 10) === "yes",
  };
}

// ---- "mostly links" ----

const LINK =
  /\b(?:https?:\/\/|ftp:\/\/|www\.)[^\s<>"]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|info|biz|ru|cn|xyz|top|io|co|me|ca|us|uk|de|site|online|shop|club|live|link|click)(?:\/[^\s<>"]*)?/gi;

/** The share of a text's non-space characters that belong to links or bare web addresses (0 to 1). */
export function linkShare(text: string): number {
  const total = text.replace(/\s+/g, "").length;
  if (total === 0) return 0;
  let inLinks = 0;
  for (const m of text.matchAll(LINK)) inLinks += m[0].length;
  return Math.min(1, inLinks / total);
}

/** A message that is mostly links (at least half of its characters) is refused as spam. */
export const MOSTLY_LINKS = 0.5;

export function isMostlyLinks(message: string): boolean {
  return linkShare(message) >= MOSTLY_LINKS;
}

// ---- the staff's side ----

export const ENQUIRY_STATES = ["new", "in_progress", "closed"] as const;
export type EnquiryState = (typeof ENQUIRY_STATES)[number];
export const ENQUIRY_STATE_LABELS: Record<EnquiryState, string> = { new: "New", in_progress: "In progress", closed: "Closed" };

export const ENQUIRY_NOTE_MAX = 5000;

export const enquiryUpdateSchema = z.object({
  state: z.enum(ENQUIRY_STATES, { error: "Choose New, In progress or Closed." }),
  staff_note: text("Staff note", ENQUIRY_NOTE_MAX, { optional: true }),
});
export type EnquiryUpdate = z.infer<typeof enquiryUpdateSchema>;

export const ENQUIRY_ADMIN_MSG = {
  updated: "Enquiry updated successfully.",
  updateError: "An error occurred. Please try again later.",
  deleted: "The enquiry has been deleted.",
  deleteError: "Error deleting the enquiry. Please try again later.",
  loadError: "An error occurred retrieving the enquiry. Please try again later.",
} as const;

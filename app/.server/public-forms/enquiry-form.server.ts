/**
 * The public enquiry form's action (POST /contact; the home page's form posts
 * there too). A plain HTML form: the answer is the page rendered again, with
 * a message under each wrong field and everything typed kept, or the
 * confirmation. Never cached (private, no-store).
 *
 * Spam defence, no outside service:
 * 1. a honeypot field no person sees: filled → refused;
 * 2. the timing token (spam-defence.ts): sent too soon, or without a valid
 *    token → shown again to be sent again (a person just presses Send);
 * 3. a per-address limit kept in the database (spam-defence.ts,
 *    ENQUIRY_LIMIT_PER_HOUR, keyed by a hash of the IP address, never the
 *    address itself) → refused;
 * 4. a message that is mostly links → refused.
 * A refused message gets the same neutral answer whatever the reason and is
 * not stored. Nothing personal is written to the log.
 */
import { data } from "react-router";
import {
  ENQUIRY_AREA_LABELS,
  ENQUIRY_MSG,
  enquirySchema,
  enquiryValuesFrom,
  HONEYPOT_FIELD,
  isMostlyLinks,
  TOKEN_FIELD,
  type EnquiryArea,
  type EnquiryValues,
} from "~/lib/forms/enquiry";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { FIRM_TIME_ZONE } from "~/lib/firm-time";
import { isRefusal, readForm } from "../http/form-post";
import { createEnquiry, type Enquiry } from "../db/enquiries";
import { checkFormToken, FORM_ANSWER_CACHE_CONTROL, issueFormToken, withinSendingLimit } from "./spam-defence";
import { getEnv } from "../env";
import { log } from "../log";
import { queueMail } from "../mail/mail";
import type { RequestContext } from "../http/request-context";
import { recordConversion } from "../statistics/stats-ingest";
import { escapeHtml } from "~/lib/html";

/** The form is text only: a generous cap, read before parsing. */
export const MAX_ENQUIRY_FORM_BYTES = 64 * 1024;

export type EnquiryOutcome = "sent" | "refused" | "invalid" | "again" | "error";

export type EnquiryActionData = {
  outcome: EnquiryOutcome;
  status: { tone: "success" | "error"; text: string };
  errors?: Record<string, string>;
  values?: EnquiryValues;
  /** A fresh timing token for the form shown again (the answer is never shared). */
  token: string;
};

function answer(status: number, body: Omit<EnquiryActionData, "token">) {
  return data<EnquiryActionData>({ ...body, token: issueFormToken() }, { status, headers: { "Cache-Control": FORM_ANSWER_CACHE_CONTROL } });
}

export async function enquiryAction(request: Request, context: RequestContext) {
  const form = await readForm(request, MAX_ENQUIRY_FORM_BYTES);
  if (isRefusal(form)) {
    const status = form.init?.status ?? 400;
    return answer(status, {
      outcome: "error",
      status: { tone: "error", text: status === 413 ? ENQUIRY_MSG.tooLarge : ENQUIRY_MSG.unreadable },
    });
  }
  const raw = formValues(form);
  const values = enquiryValuesFrom(raw);
  const refused = () => answer(200, { outcome: "refused", status: { tone: "error", text: ENQUIRY_MSG.refused }, values });

  // 1. The honeypot: no person fills it.
  const trap = raw[HONEYPOT_FIELD];
  if (typeof trap !== "string" || trap !== "") return refused();

  // Field checks next, so a person sees every wrong field at once.
  const parsed = enquirySchema.safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues);
    return answer(400, { outcome: "invalid", status: { tone: "error", text: ENQUIRY_MSG.checkFields }, errors, values });
  }

  // 2. The timing token: too soon, missing, made up or a day old: send again (nothing stored).
  if (checkFormToken(raw[TOKEN_FIELD]) !== "ok") {
    return answer(400, { outcome: "again", status: { tone: "error", text: ENQUIRY_MSG.again }, values });
  }

  // 3. The per-address limit, 4. mostly links.
  let allowed: boolean;
  try {
    allowed = await withinSendingLimit("enquiry", context);
  } catch (error) {
    log("error", "enquiry not stored: the database did not answer", { error: (error as Error).message.slice(0, 200) });
    return answer(503, { outcome: "error", status: { tone: "error", text: ENQUIRY_MSG.storeError }, values });
  }
  if (!allowed) {
    log("info", "enquiry refused: per-address limit");
    return refused();
  }
  if (isMostlyLinks(parsed.data.message)) {
    log("info", "enquiry refused: mostly links");
    return refused();
  }

  let enquiry: Enquiry;
  try {
    enquiry = await createEnquiry(parsed.data);
  } catch (error) {
    log("error", "enquiry not stored", { error: (error as Error).message.slice(0, 200) });
    return answer(503, { outcome: "error", status: { tone: "error", text: ENQUIRY_MSG.storeError }, values });
  }
  log("info", "enquiry received", { id: enquiry.id });
  // Visit statistics: an enquiry sent, credited to the page this visit began on (decision 0023).
  recordConversion("enquiry", request, context);
  await notifyStaff(enquiry);
  return answer(200, { outcome: "sent", status: { tone: "success", text: ENQUIRY_MSG.sent } });
}

/**
 * Tells ENQUIRY_TO that an enquiry arrived, through the one mail layer
 * (outbox without SMTP). The e-mail holds no personal details, only the
 * area and a link to the dashboard: the enquiry stays in one place, where
 * retention and deletion on request reach it. A mail failure does not
 * undo the enquiry, and the answer does not wait on the e-mail server: the
 * message is kept with the job that sends it (`queueMail`).
 */
async function notifyStaff(enquiry: Enquiry) {
  const env = getEnv();
  if (!env.ENQUIRY_TO?.length) return;
  const area = ENQUIRY_AREA_LABELS[enquiry.practice_area as EnquiryArea] ?? enquiry.practice_area;
  const link = `${env.publicUrl}/dashboard/enquiries/${enquiry.id}`;
  const when = enquiry.created_at.toLocaleString("en-CA", { timeZone: FIRM_TIME_ZONE, dateStyle: "long", timeStyle: "short" });
  const privacy = "For privacy, the sender's details and message are not included in this e-mail.";
  try {
    await queueMail({
      kind: "enquiry",
      to: env.ENQUIRY_TO.join(", "),
      subject: `New enquiry #${enquiry.id}: ${area}`,
      text: `A new enquiry (#${enquiry.id}) arrived through the website on ${when}.\n\nArea: ${area}\n\nRead it in the dashboard: ${link}\n\n${privacy}\n`,
      html: `<p>A new enquiry (#${enquiry.id}) arrived through the website on ${escapeHtml(when)}.</p><p>Area: ${escapeHtml(area)}</p><p><a href="${escapeHtml(link)}">Read it in the dashboard</a></p><p>${privacy}</p>`,
    });
  } catch (error) {
    log("error", "enquiry notification not kept", { id: enquiry.id, error: (error as Error).message.slice(0, 200) });
  }
}

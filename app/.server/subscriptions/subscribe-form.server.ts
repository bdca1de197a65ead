/**
 * The sign-up form's action (POST /subscribe). The same spam defences as the
 * enquiry form (public-forms/spam-defence.ts): the honeypot field, the signed
 * timing token and the per-address limit (keyed by a hash of the IP address,
 * counted apart from enquiries). A valid request gets one answer whatever the address's state
 * (new, pending, confirmed, unsubscribed, suppressed): nobody learns who
 * subscribes. Never cached (private, no-store).
 */
import { data } from "react-router";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import { EMPTY_SUBSCRIBE, isTopic, SUBSCRIBE_MSG, subscribeSchema, type SubscribeValues } from "~/lib/forms/subscribe";
import { isRefusal, readForm } from "../http/form-post";
import { requestSubscription, type SubscriptionRequest } from "../db/subscribers";
import { checkFormToken, FORM_ANSWER_CACHE_CONTROL, issueFormToken, withinSendingLimit } from "../public-forms/spam-defence";
import { log } from "../log";
import { getEnv } from "../env";
import { releaseHeldMail, signUpMailSince } from "../db/outbox";
import { sendMailLater } from "../mail/mail";
import type { RequestContext } from "../http/request-context";
import { absoluteUrl } from "../http/site-url";
import { confirmUrl, preferencesUrl } from "./links";
import { confirmationMessage, manageMessage } from "./messages";

const MAX_SUBSCRIBE_FORM_BYTES = 16 * 1024;

export type SubscribeOutcome = "sent" | "refused" | "invalid" | "again" | "error";
export type SubscribeActionData = {
  outcome: SubscribeOutcome;
  status: { tone: "success" | "error"; text: string };
  errors?: Record<string, string>;
  values?: SubscribeValues;
  token: string;
};

function answer(status: number, body: Omit<SubscribeActionData, "token">) {
  return data<SubscribeActionData>(
    { ...body, token: issueFormToken() },
    { status, headers: { "Cache-Control": FORM_ANSWER_CACHE_CONTROL } },
  );
}

function valuesFrom(raw: Record<string, string | string[]>): SubscribeValues {
  const email = typeof raw.email === "string" ? raw.email.replace(/\0/g, "").slice(0, 320) : "";
  const topics = Array.isArray(raw.topics) ? raw.topics.filter(isTopic) : [];
  return { ...EMPTY_SUBSCRIBE, email, topics, consent: raw.consent === "yes" };
}

/**
 * Records the request and has the e-mail it calls for made and sent after
 * the answer (`sendMailLater`): the confirmation link, or a confirmed
 * subscriber's preferences link. The answer takes the same time whatever the
 * address's state, with or without SMTP. Both messages go through the one
 * mail layer (kept in the outbox, their bodies removed once delivered: they
 * hold a link). True when a confirmation is sent.
 */
export async function requestAndConfirm(input: SubscriptionRequest): Promise<boolean> {
  const { token, subscribed } = await requestSubscription(input);
  const to = input.email.trim().toLowerCase();
  if (token) {
    const topics = input.topics;
    sendMailLater(async () => ({
      kind: "subscription-confirmation",
      to,
      sensitive: true,
      hold: await overHourlyCap(),
      ...(await confirmationMessage({ confirmUrl: confirmUrl(token), topics })),
    }));
    return true;
  }
  if (subscribed) {
    sendMailLater(async () => ({
      kind: "subscription-manage",
      to,
      sensitive: true,
      hold: await overHourlyCap(),
      ...(await manageMessage({ preferencesUrl: preferencesUrl(subscribed), topics: subscribed.topics })),
    }));
  }
  return false;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Whether the site has sent its SIGN_UP_EMAILS_PER_HOUR sign-up e-mails in
 * the last hour: past it, new ones are held (a botnet cannot turn the form
 * into a mail cannon), owners are alerted on the dashboard, and the Outbox
 * job lets them go as the hour allows (`releaseHeldSignUpMail`).
 */
async function overHourlyCap(now = Date.now()): Promise<boolean> {
  if (!getEnv().SMTP_URL) return false; // nothing leaves the site: every message is kept for owners anyway
  return (await signUpMailSince(new Date(now - HOUR_MS))) >= getEnv().SIGN_UP_EMAILS_PER_HOUR;
}

/** Lets held sign-up e-mails go while the last hour has room (the Outbox job, before it sends). */
export async function releaseHeldSignUpMail(now = new Date()): Promise<number> {
  const room = getEnv().SIGN_UP_EMAILS_PER_HOUR - (await signUpMailSince(new Date(now.getTime() - HOUR_MS)));
  return releaseHeldMail(room, now);
}

export async function subscribeAction(request: Request, context: RequestContext) {
  const form = await readForm(request, MAX_SUBSCRIBE_FORM_BYTES);
  if (isRefusal(form)) {
    const status = form.init?.status ?? 400;
    return answer(status, {
      outcome: "error",
      status: { tone: "error", text: status === 413 ? SUBSCRIBE_MSG.tooLarge : SUBSCRIBE_MSG.unreadable },
    });
  }
  const raw = formValues(form, ["topics"]);
  const values = valuesFrom(raw);
  const refused = () => answer(200, { outcome: "refused", status: { tone: "error", text: SUBSCRIBE_MSG.refused }, values });

  const trap = raw[HONEYPOT_FIELD];
  if (typeof trap !== "string" || trap !== "") return refused();

  const parsed = subscribeSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues);
    // "topics.0" (an unknown topic) is the topics field's error.
    for (const key of Object.keys(errors)) if (key.startsWith("topics.")) errors.topics ??= errors[key];
    return answer(400, { outcome: "invalid", status: { tone: "error", text: SUBSCRIBE_MSG.checkFields }, errors, values });
  }
  if (checkFormToken(raw[TOKEN_FIELD]) !== "ok") {
    return answer(400, { outcome: "again", status: { tone: "error", text: SUBSCRIBE_MSG.again }, values });
  }
  try {
    if (!(await withinSendingLimit("subscribe", context))) {
      log("info", "subscription refused: per-address limit");
      return refused();
    }
    await requestAndConfirm({
      email: parsed.data.email,
      topics: parsed.data.topics,
      formUrl: absoluteUrl("/subscribe"),
      source: "web",
    });
  } catch (error) {
    log("error", "subscription not recorded", { error: (error as Error).message.slice(0, 200) });
    return answer(503, { outcome: "error", status: { tone: "error", text: SUBSCRIBE_MSG.storeError }, values });
  }
  return answer(200, { outcome: "sent", status: { tone: "success", text: SUBSCRIBE_MSG.sent } });
}

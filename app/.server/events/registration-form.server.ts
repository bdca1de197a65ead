/**
 * The event registration form's action (POST /event/:slug; issue 45). The
 * same spam defences as the enquiry form (public-forms/spam-defence.ts: the
 * honeypot, the signed timing token, the per-address limit). A valid
 * registration gets one answer whether the address is new, already
 * registered or waiting, in the same time: nobody learns who registered. A new one is e-mailed
 * its confirmation (or its place on the waiting list) with the cancel link;
 * an address already registered is sent nothing again. The alerts box (never
 * ticked by the site) asks for a subscription through the subscriptions'
 * double opt-in. Never cached (private, no-store).
 *
 * A valid registration is answered 303 to the event's page with
 * `?registration=sent` (Post/Redirect/Get): that page says REGISTRATION_MSG.sent
 * in place of the form, is the same for every registrant and is kept by the
 * page cache, so the answer costs a cache hit instead of the page's loaders,
 * render and compression (half a registration's CPU; docs/performance.md,
 * "bench:events"). Reloading it sends nothing again. Every other answer
 * (errors, refusals, closed) is the page rendered with the form as it was.
 */
import { data, redirect } from "react-router";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { fieldErrors, formValues } from "~/lib/forms/form-data";
import {
  EMPTY_REGISTRATION,
  REGISTRATION_MSG,
  REGISTRATION_SENT_PARAM,
  REGISTRATION_SENT_VALUE,
  registrationSchema,
  type RegistrationValues,
} from "~/lib/forms/registration";
import { SUBSCRIPTION_TOPICS } from "~/lib/forms/subscribe";
import { eventPath } from "~/lib/events";
import { isRefusal, readForm } from "../http/form-post";
import { registerForEvent, type Event } from "../db/events";
import { checkFormToken, FORM_ANSWER_CACHE_CONTROL, issueFormToken, withinSendingLimit } from "../public-forms/spam-defence";
import { log } from "../log";
import { sendMailLater } from "../mail/mail";
import type { RequestContext } from "../http/request-context";
import { absoluteUrl } from "../http/site-url";
import { requestAndConfirm } from "../subscriptions/subscribe-form.server";
import { eventMail } from "./messages";

const MAX_REGISTRATION_FORM_BYTES = 16 * 1024;

export type RegistrationActionData = {
  outcome: "sent" | "refused" | "invalid" | "again" | "closed" | "error";
  status: { tone: "success" | "error"; text: string };
  errors?: Record<string, string>;
  values?: RegistrationValues;
  token: string;
};

function answer(status: number, body: Omit<RegistrationActionData, "token">) {
  return data<RegistrationActionData>(
    { ...body, token: issueFormToken() },
    { status, headers: { "Cache-Control": FORM_ANSWER_CACHE_CONTROL } },
  );
}

function valuesFrom(raw: Record<string, string | string[]>): RegistrationValues {
  const get = (name: string, max: number) => (typeof raw[name] === "string" ? raw[name].replace(/\0/g, "").slice(0, max) : "");
  return {
    ...EMPTY_REGISTRATION,
    name: get("name", 200),
    email: get("email", 320),
    organisation: get("organisation", 200),
    job_title: get("job_title", 200),
    accessibility_needs: get("accessibility_needs", 1000),
    alerts: raw.alerts === "yes",
  };
}

export async function registrationAction(request: Request, context: RequestContext, event: Event) {
  const form = await readForm(request, MAX_REGISTRATION_FORM_BYTES);
  if (isRefusal(form)) {
    const status = form.init?.status ?? 400;
    return answer(status, {
      outcome: "error",
      status: { tone: "error", text: status === 413 ? REGISTRATION_MSG.tooLarge : REGISTRATION_MSG.unreadable },
    });
  }
  const raw = formValues(form);
  const values = valuesFrom(raw);
  const refused = () => answer(200, { outcome: "refused", status: { tone: "error", text: REGISTRATION_MSG.refused }, values });

  const trap = raw[HONEYPOT_FIELD];
  if (typeof trap !== "string" || trap !== "") return refused();

  const parsed = registrationSchema.safeParse(raw);
  if (!parsed.success) {
    return answer(400, {
      outcome: "invalid",
      status: { tone: "error", text: REGISTRATION_MSG.checkFields },
      errors: fieldErrors(parsed.error.issues),
      values,
    });
  }
  if (checkFormToken(raw[TOKEN_FIELD]) !== "ok") {
    return answer(400, { outcome: "again", status: { tone: "error", text: REGISTRATION_MSG.again }, values });
  }
  try {
    if (!(await withinSendingLimit("event", context))) {
      log("info", "event registration refused: per-address limit");
      return refused();
    }
    const { alerts, ...person } = parsed.data;
    const result = await registerForEvent(event.id, person);
    if (result.outcome === "closed")
      return answer(200, { outcome: "closed", status: { tone: "error", text: REGISTRATION_MSG.closed }, values });
    // Made and sent after the answer (`sendMailLater`): the answer takes the same time whether or not the address was registered.
    if (result.outcome !== "already") {
      const { outcome, registration } = result;
      sendMailLater(() => Promise.resolve(eventMail(outcome, event, registration)));
    }
    if (alerts) {
      await requestAndConfirm({
        email: person.email,
        topics: SUBSCRIPTION_TOPICS,
        formUrl: absoluteUrl(eventPath(event.slug)),
        source: "web",
      });
    }
  } catch (error) {
    log("error", "event registration not recorded", { error: (error as Error).message.slice(0, 200) });
    return answer(503, { outcome: "error", status: { tone: "error", text: REGISTRATION_MSG.storeError }, values });
  }
  return redirect(`${eventPath(event.slug)}?${REGISTRATION_SENT_PARAM}=${REGISTRATION_SENT_VALUE}#register`, {
    status: 303,
    headers: { "Cache-Control": FORM_ANSWER_CACHE_CONTROL },
  });
}

/**
 * The insight sign-up form (/subscribe): a plain HTML form posting to
 * /subscribe, working the same with JavaScript off. The consent box stands on
 * its own (nothing else is agreed to by ticking it) and is never ticked by
 * the site: shown again after a mistake, it keeps the person's own tick, as
 * every field keeps what they typed (issue 42). Beside
 * it, the request says who asks (name, mailing address, phone, e-mail), what
 * for, and that consent can be withdrawn at any time (CASL s. 10(1)).
 */
import { FIRM } from "~/config/firm";
import { FieldError } from "../field-error";
import { ConsentBox, EMAIL_INPUT, FormProblems, RobotFieldAndToken, SentStatus, SubmitButton, TextInput } from "./form-parts";
import type { PublicFormState } from "./form-parts";
import { CONSENT_WORDING, EMPTY_SUBSCRIBE, SUBSCRIPTION_TOPICS, TOPIC_LABELS, type SubscribeValues } from "~/lib/forms/subscribe";

export type SubscribeFormState = PublicFormState<SubscribeValues>;

const FIELD_LABELS: Record<string, string> = { email: "E-mail", topics: "Topics", consent: "Consent" };
const linkClass = "font-semibold text-accent underline underline-offset-4";

export function SubscribeForm({ state, token }: { state?: SubscribeFormState; token: string }) {
  if (state?.outcome === "sent") {
    return (
      <div id="subscribe" tabIndex={-1} className="outline-none">
        <SentStatus title="Check your e-mail" text={state.status.text} />
        <p className="mt-6">
          <a href="/insights" className={linkClass}>
            Back to Insights
          </a>
        </p>
      </div>
    );
  }
  const values = state?.values ?? EMPTY_SUBSCRIBE;
  const errors = state?.errors ?? {};
  const errorList = Object.entries(errors).filter(([name]) => name in FIELD_LABELS);
  const summary = state && state.outcome !== "invalid" ? state.status.text : undefined;
  const describe = (name: string, extra?: string) => [extra, errors[name] ? `subscribe-${name}-error` : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div id="subscribe" tabIndex={-1} className="outline-none">
      <h2 id="subscribe-title" className="text-2xl font-semibold">
        Subscribe to insights and client alerts
      </h2>
      <FormProblems
        form="subscribe"
        text={state?.status.text}
        errorList={errorList}
        labels={FIELD_LABELS}
        summary={summary}
        href={(name) => (name === "topics" ? "#subscribe-topic-insurance" : `#subscribe-${name}`)}
      />
      <form method="post" action="/subscribe#subscribe" noValidate aria-labelledby="subscribe-title" className="relative mt-6 space-y-7">
        <p className="text-sm text-muted">Fields marked (required) must be filled in.</p>
        <TextInput form="subscribe" field={EMAIL_INPUT} value={values.email} error={errors.email} />
        <fieldset aria-describedby={describe("topics", "subscribe-topics-hint")}>
          <legend className="font-semibold text-ink">
            Topics <span className="font-normal text-muted">(required)</span>
          </legend>
          <p id="subscribe-topics-hint" className="mt-1 text-sm text-muted">
            Choose at least one.
          </p>
          <TopicBoxes form="subscribe" chosen={values.topics} labelClass="text-base text-ink" />
          <FieldError id="subscribe-topics-error" error={errors.topics} />
        </fieldset>
        <RobotFieldAndToken form="subscribe" token={token} />
        <div className="border-l-4 border-brass bg-soft px-5 py-4">
          <ConsentBox form="subscribe" checked={values.consent} error={errors.consent} describedBy={describe("consent", "subscribe-consent-more")}>
            {CONSENT_WORDING}
          </ConsentBox>
          <p id="subscribe-consent-more" className="mt-3 text-sm leading-6 text-ink">
            We will first send a message asking you to confirm. What we keep, why and for how long is explained in our{" "}
            <a href="/privacy#subscriptions" className={linkClass}>
              privacy notice
            </a>
            .
          </p>
          <FieldError id="subscribe-consent-error" error={errors.consent} />
        </div>
        <SubmitButton>Subscribe</SubmitButton>
        <p className="text-sm text-muted">
          Questions? Write to{" "}
          <a href={`mailto:${FIRM.email}`} className={linkClass}>
            {FIRM.email}
          </a>
          .
        </p>
      </form>
    </div>
  );
}

/** A box for each topic, ticked when chosen (the sign-up form and the preferences page); `form` is the prefix of their ids. */
export function TopicBoxes({ form, chosen, labelClass }: { form: string; chosen: readonly string[]; labelClass?: string }) {
  return (
    <div className="mt-3 space-y-2">
      {SUBSCRIPTION_TOPICS.map((topic) => (
        <div key={topic} className="flex items-center gap-3">
          <input
            id={`${form}-topic-${topic}`}
            name="topics"
            type="checkbox"
            value={topic}
            defaultChecked={chosen.includes(topic)}
            className="size-5 shrink-0 accent-accent"
          />
          <label htmlFor={`${form}-topic-${topic}`} className={labelClass}>
            {TOPIC_LABELS[topic]}
          </label>
        </div>
      ))}
    </div>
  );
}

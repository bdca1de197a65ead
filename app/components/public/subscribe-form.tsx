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
import { FormProblems, RobotFieldAndToken, SentStatus, SubmitButton, TextInput } from "./form-parts";
import { CONSENT_WORDING, EMPTY_SUBSCRIBE, SUBSCRIPTION_TOPICS, TOPIC_LABELS, type SubscribeValues } from "~/lib/forms/subscribe";

export type SubscribeFormState = {
  outcome: "sent" | "refused" | "invalid" | "again" | "error";
  status: { tone: "success" | "error"; text: string };
  errors?: Record<string, string>;
  values?: SubscribeValues;
  token: string;
};

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
        <TextInput
          form="subscribe"
          name="email"
          label="E-mail"
          required
          type="email"
          autoComplete="email"
          maxLength={320}
          value={values.email}
          error={errors.email}
        />
        <fieldset aria-describedby={describe("topics", "subscribe-topics-hint")}>
          <legend className="font-semibold text-ink">
            Topics <span className="font-normal text-muted">(required)</span>
          </legend>
          <p id="subscribe-topics-hint" className="mt-1 text-sm text-muted">
            Choose at least one.
          </p>
          <div className="mt-3 space-y-2">
            {SUBSCRIPTION_TOPICS.map((topic) => (
              <div key={topic} className="flex items-center gap-3">
                <input
                  id={`subscribe-topic-${topic}`}
                  name="topics"
                  type="checkbox"
                  value={topic}
                  defaultChecked={values.topics.includes(topic)}
                  className="size-5 shrink-0 accent-accent"
                />
                <label htmlFor={`subscribe-topic-${topic}`} className="text-base text-ink">
                  {TOPIC_LABELS[topic]}
                </label>
              </div>
            ))}
          </div>
          <FieldError id="subscribe-topics-error" error={errors.topics} />
        </fieldset>
        <RobotFieldAndToken form="subscribe" token={token} />
        <div className="border-l-4 border-brass bg-soft px-5 py-4">
          <div className="flex items-start gap-3">
            {/* Never ticked by the site (CASL): ticked only when the form comes back with the person's own tick (issue 42). */}
            <input
              id="subscribe-consent"
              name="consent"
              type="checkbox"
              value="yes"
              required
              defaultChecked={values.consent}
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={describe("consent", "subscribe-consent-more")}
              className="mt-1 size-5 shrink-0 accent-accent"
            />
            <label htmlFor="subscribe-consent" className="text-base leading-7 text-ink">
              {CONSENT_WORDING} <span className="text-muted">(required)</span>
            </label>
          </div>
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

/**
 * The enquiry form of /contact and of the home page's contact section: a
 * plain HTML form (no client-side state; it works the same with JavaScript
 * off) posting to /contact. The answer is the /contact page rendered again:
 * a summary and a message under each wrong field with everything typed kept,
 * or the confirmation. The notice above the form says, in plain words, that
 * sending it creates no lawyer-client relationship and asks for no
 * confidential details before a conflict check.
 */
import {
  EMPTY_ENQUIRY,
  ENQUIRY_AREA_LABELS,
  ENQUIRY_AREAS,
  ENQUIRY_MESSAGE_MAX,
  type EnquiryValues,
} from "~/lib/forms/enquiry";
import { FIRM } from "~/config/firm";
import { FieldError } from "../field-error";
import { ConsentBox, EMAIL_INPUT, FormProblems, NAME_INPUT, RobotFieldAndToken, SentStatus, SubmitButton, TextInput } from "./form-parts";
import type { InputSpec, PublicFormState } from "./form-parts";
import { inputClass, labelClass } from "./form-styles";

export type EnquiryFormState = PublicFormState<EnquiryValues>;

const INPUTS: InputSpec<"name" | "email" | "phone">[] = [
  NAME_INPUT,
  EMAIL_INPUT,
  { name: "phone", label: "Phone", required: false, type: "tel", autoComplete: "tel", max: 40 },
];

const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  email: "E-mail",
  phone: "Phone",
  practice_area: "Area of law",
  message: "Message",
  consent: "Confirmation",
};

/** The notice above the form (also on the privacy page's summary). */
export function EnquiryNotice() {
  return (
    <div className="border-l-4 border-brass bg-soft px-5 py-4 text-base leading-7 text-ink">
      <p className="font-semibold">Before you write</p>
      <p className="mt-1">
        Sending this form does not make {FIRM.name} your lawyers. We can act for you only after we have checked for conflicts of
        interest and agreed in writing to act. Until then, please do not send confidential details: describe the matter in general
        terms, such as who is involved and what kind of help you need.
      </p>
    </div>
  );
}

export function EnquiryForm({ state, token, headingLevel = 2 }: { state?: EnquiryFormState; token: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  if (state?.outcome === "sent") {
    return (
      <div id="enquiry" tabIndex={-1} className="scroll-mt-[30px] outline-none">
        <SentStatus Heading={Heading} title="Enquiry sent" text={state.status.text}>
          <p className="mt-2 text-ink/90">
            If the matter is urgent, call us at{" "}
            <a className="font-semibold text-accent underline underline-offset-4" href={`tel:${FIRM.phoneE164}`}>
              {FIRM.phone}
            </a>
            .
          </p>
        </SentStatus>
        <p className="mt-6">
          <a href="/" className="font-semibold text-accent underline underline-offset-4">
            Back to the home page
          </a>
        </p>
      </div>
    );
  }
  const values = state?.values ?? EMPTY_ENQUIRY;
  const errors = state?.errors ?? {};
  const showSummary = state && state.outcome !== "invalid" ? state.status.text : undefined;
  const describe = (name: string, extra?: string) => [extra, errors[name] ? `enquiry-${name}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const errorList = Object.entries(errors).filter(([name]) => name in FIELD_LABELS);
  return (
    <div id="enquiry" tabIndex={-1} className="scroll-mt-[30px] outline-none">
      <Heading id="enquiry-title" className="text-2xl font-semibold">
        Send us a message
      </Heading>
      <div className="mt-4">
        <EnquiryNotice />
      </div>
      <FormProblems form="enquiry" text={state?.status.text} errorList={errorList} labels={FIELD_LABELS} summary={showSummary} />
      <form method="post" action="/contact#enquiry" noValidate aria-labelledby="enquiry-title" className="relative mt-6 space-y-6">
        <p className="text-sm text-muted">Fields marked (required) must be filled in.</p>
        <div className="grid gap-6 sm:grid-cols-2">
          {INPUTS.map((f) => (
            <TextInput key={f.name} form="enquiry" field={f} value={values[f.name]} error={errors[f.name]} />
          ))}
          <div>
            <label htmlFor="enquiry-practice_area" className={labelClass}>
              Area of law <span className="font-normal text-muted">(required)</span>
            </label>
            <select
              id="enquiry-practice_area"
              name="practice_area"
              required
              defaultValue={(ENQUIRY_AREAS as readonly string[]).includes(values.practice_area) ? values.practice_area : ""}
              aria-invalid={errors.practice_area ? true : undefined}
              aria-describedby={describe("practice_area")}
              className={inputClass}
            >
              <option value="">Choose one…</option>
              {ENQUIRY_AREAS.map((area) => (
                <option key={area} value={area}>
                  {ENQUIRY_AREA_LABELS[area]}
                </option>
              ))}
            </select>
            <FieldError id="enquiry-practice_area-error" error={errors.practice_area} />
          </div>
        </div>
        <div>
          <label htmlFor="enquiry-message" className={labelClass}>
            Message <span className="font-normal text-muted">(required)</span>
          </label>
          <p id="enquiry-message-hint" className="mt-1 text-sm text-muted">
            In general terms, please: no confidential details yet. At most {ENQUIRY_MESSAGE_MAX.toLocaleString("en-CA")} characters.
          </p>
          <textarea
            id="enquiry-message"
            name="message"
            rows={7}
            maxLength={ENQUIRY_MESSAGE_MAX}
            required
            defaultValue={values.message}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describe("message", "enquiry-message-hint")}
            className={inputClass}
          />
          <FieldError id="enquiry-message-error" error={errors.message} />
        </div>
        <RobotFieldAndToken form="enquiry" token={token} />
        <div>
          <ConsentBox form="enquiry" checked={values.consent} error={errors.consent} describedBy={describe("consent")}>
            I have read the notice above and the{" "}
            <a href="/privacy" className="font-semibold text-accent underline underline-offset-4">
              privacy notice
            </a>
            , and I agree that {FIRM.name} may use these details to answer my enquiry and to check for conflicts of interest.
          </ConsentBox>
          <FieldError id="enquiry-consent-error" error={errors.consent} />
        </div>
        <SubmitButton>Send</SubmitButton>
      </form>
    </div>
  );
}

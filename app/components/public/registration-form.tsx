/**
 * The event registration form (issue 45): a plain HTML form posting to the
 * event's page, working the same with JavaScript off. Every field keeps what
 * was typed after a mistake; the alerts box is never ticked by the site and
 * asks for nothing but a separate subscription (double opt-in).
 */
import { FieldError } from "../field-error";
import { EMAIL_INPUT, FormProblems, NAME_INPUT, RobotFieldAndToken, SentStatus, SubmitButton, TextInput } from "./form-parts";
import type { InputSpec, PublicFormOutcome, PublicFormState } from "./form-parts";
import { inputClass, labelClass } from "./form-styles";
import { ALERTS_WORDING, EMPTY_REGISTRATION, type RegistrationValues } from "~/lib/forms/registration";

export type RegistrationFormState = PublicFormState<RegistrationValues, PublicFormOutcome | "closed">;

const FIELDS: InputSpec<"name" | "email" | "organisation" | "job_title">[] = [
  NAME_INPUT,
  EMAIL_INPUT,
  { name: "organisation", label: "Organisation", required: true, type: "text", autoComplete: "organization", max: 200 },
  { name: "job_title", label: "Title", required: false, type: "text", autoComplete: "organization-title", max: 200 },
];
const LABELS: Record<string, string> = { ...Object.fromEntries(FIELDS.map((f) => [f.name, f.label])), accessibility_needs: "Accessibility needs" };

export function RegistrationForm({ action, state, token, full }: { action: string; state?: RegistrationFormState; token: string; full: boolean }) {
  if (state?.outcome === "sent") {
    return (
      <div id="register" tabIndex={-1} className="outline-none">
        <SentStatus title="Check your e-mail" text={state.status.text} />
      </div>
    );
  }
  const values = state?.values ?? EMPTY_REGISTRATION;
  const errors = state?.errors ?? {};
  const errorList = Object.entries(errors).filter(([name]) => name in LABELS);
  const summary = state && state.outcome !== "invalid" ? state.status.text : undefined;
  const describe = (name: string) => (errors[name] ? `register-${name}-error` : undefined);
  return (
    <div id="register" tabIndex={-1} className="outline-none">
      <h2 id="register-title" className="text-2xl font-semibold">
        {full ? "Join the waiting list" : "Register"}
      </h2>
      <FormProblems form="register" text={state?.status.text} errorList={errorList} labels={LABELS} summary={summary} />
      <form method="post" action={`${action}#register`} noValidate aria-labelledby="register-title" className="relative mt-6 space-y-6">
        <p className="text-sm text-muted">Fields marked (required) must be filled in.</p>
        {FIELDS.map((f) => (
          <TextInput key={f.name} form="register" field={f} value={values[f.name]} error={errors[f.name]} />
        ))}
        <div>
          <label htmlFor="register-accessibility_needs" className={labelClass}>
            Accessibility needs <span className="font-normal text-muted">(optional)</span>
          </label>
          <textarea
            id="register-accessibility_needs"
            name="accessibility_needs"
            rows={3}
            maxLength={1000}
            defaultValue={values.accessibility_needs}
            aria-invalid={errors.accessibility_needs ? true : undefined}
            aria-describedby={describe("accessibility_needs")}
            className={inputClass}
          />
          <FieldError id="register-accessibility_needs-error" error={errors.accessibility_needs} />
        </div>
        <RobotFieldAndToken form="register" token={token} />
        <div className="flex items-start gap-3">
          {/* Never ticked by the site (CASL): ticked only when the form comes back with the person's own tick. */}
          <input id="register-alerts" name="alerts" type="checkbox" value="yes" defaultChecked={values.alerts} className="mt-1 size-5 shrink-0 accent-accent" />
          <label htmlFor="register-alerts" className="text-base leading-7 text-ink">
            {ALERTS_WORDING}
          </label>
        </div>
        <SubmitButton>{full ? "Join the waiting list" : "Register"}</SubmitButton>
      </form>
    </div>
  );
}

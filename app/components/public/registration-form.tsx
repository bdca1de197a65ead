/**
 * The event registration form (issue 45): a plain HTML form posting to the
 * event's page, working the same with JavaScript off. Every field keeps what
 * was typed after a mistake; the alerts box is never ticked by the site and
 * asks for nothing but a separate subscription (double opt-in).
 */
import { CircleAlert, CircleCheck } from "lucide-react";
import { FieldError } from "../field-error";
import { inputClass, labelClass } from "./form-styles";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { ALERTS_WORDING, EMPTY_REGISTRATION, type RegistrationValues } from "~/lib/forms/registration";

export type RegistrationFormState = {
  outcome: "sent" | "refused" | "invalid" | "again" | "closed" | "error";
  status: { tone: "success" | "error"; text: string };
  errors?: Record<string, string>;
  values?: RegistrationValues;
  token: string;
};

const FIELDS: { name: "name" | "email" | "organisation" | "job_title"; label: string; required: boolean; type: string; autoComplete: string; max: number }[] = [
  { name: "name", label: "Name", required: true, type: "text", autoComplete: "name", max: 200 },
  { name: "email", label: "E-mail", required: true, type: "email", autoComplete: "email", max: 320 },
  { name: "organisation", label: "Organisation", required: true, type: "text", autoComplete: "organization", max: 200 },
  { name: "job_title", label: "Title", required: false, type: "text", autoComplete: "organization-title", max: 200 },
];
const LABELS: Record<string, string> = { ...Object.fromEntries(FIELDS.map((f) => [f.name, f.label])), accessibility_needs: "Accessibility needs" };

export function RegistrationForm({ action, state, token, full }: { action: string; state?: RegistrationFormState; token: string; full: boolean }) {
  if (state?.outcome === "sent") {
    return (
      <div id="register" tabIndex={-1} className="outline-none">
        <div role="status" className="border-l-4 border-success bg-white px-5 py-5 shadow-sm">
          <h2 className="flex items-center gap-2 text-2xl font-semibold text-success">
            <CircleCheck aria-hidden="true" className="size-6 shrink-0" /> Check your e-mail
          </h2>
          <p className="mt-2 text-lg leading-8 text-ink">{state.status.text}</p>
        </div>
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
      {errorList.length ? (
        <div role="alert" aria-labelledby="register-problem" className="mt-6 border-2 border-error bg-white px-5 py-4">
          <p id="register-problem" className="font-semibold text-error">
            {state?.status.text}
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-6">
            {errorList.map(([name, message]) => (
              <li key={name}>
                <a className="text-error underline underline-offset-2" href={`#register-${name}`}>
                  {LABELS[name]}: {message}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : summary ? (
        <p role="alert" className="mt-6 flex items-start gap-2 border-2 border-error bg-white px-5 py-4 font-semibold text-error">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <span>{summary}</span>
        </p>
      ) : null}
      <form method="post" action={`${action}#register`} noValidate aria-labelledby="register-title" className="relative mt-6 space-y-6">
        <p className="text-sm text-muted">Fields marked (required) must be filled in.</p>
        {FIELDS.map((f) => (
          <div key={f.name}>
            <label htmlFor={`register-${f.name}`} className={labelClass}>
              {f.label} <span className="font-normal text-muted">{f.required ? "(required)" : "(optional)"}</span>
            </label>
            <input
              id={`register-${f.name}`}
              name={f.name}
              type={f.type}
              autoComplete={f.autoComplete}
              maxLength={f.max}
              required={f.required}
              defaultValue={values[f.name]}
              aria-invalid={errors[f.name] ? true : undefined}
              aria-describedby={describe(f.name)}
              className={inputClass}
            />
            <FieldError id={`register-${f.name}-error`} error={errors[f.name]} />
          </div>
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
        {/* A field for robots only: hidden from view and from assistive technology, never focused. */}
        <div aria-hidden="true" className="absolute top-0 -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="register-reference">Leave this field empty</label>
          <input id="register-reference" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <input type="hidden" name={TOKEN_FIELD} value={token} />
        <div className="flex items-start gap-3">
          {/* Never ticked by the site (CASL): ticked only when the form comes back with the person's own tick. */}
          <input id="register-alerts" name="alerts" type="checkbox" value="yes" defaultChecked={values.alerts} className="mt-1 size-5 shrink-0 accent-accent" />
          <label htmlFor="register-alerts" className="text-base leading-7 text-ink">
            {ALERTS_WORDING}
          </label>
        </div>
        <button
          type="submit"
          className="inline-flex items-center gap-2 bg-accent px-7 py-3.5 text-sm font-semibold tracking-[0.16em] text-white uppercase hover:bg-accent-dark"
        >
          {full ? "Join the waiting list" : "Register"}
        </button>
      </form>
    </div>
  );
}

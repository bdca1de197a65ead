/**
 * The parts the public forms (enquiry, subscription, event registration)
 * share: what their page renders them from, the confirmation once sent, the
 * problems above the form, a labelled text field with its message, the
 * consent box, the robots' field with the form's token, and the submit
 * button. `form` is the prefix of every id ("enquiry-email").
 */
import type { ReactNode } from "react";
import { CircleAlert, CircleCheck } from "lucide-react";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { FieldError } from "../field-error";
import { inputClass, labelClass } from "./form-styles";

/** How a public form's post ended (the registration form adds "closed"). */
export type PublicFormOutcome = "sent" | "refused" | "invalid" | "again" | "error";

/** What a public form is rendered from after a post: the outcome, the server's words, the fields in error, what was typed, and a new token. */
export type PublicFormState<Values, Outcome extends string = PublicFormOutcome> = {
  outcome: Outcome;
  status: { tone: "success" | "error"; text: string };
  errors?: Record<string, string>;
  values?: Values;
  token: string;
};

/** The box saying the form was sent: a heading with a tick, the server's words, and anything after them. */
export function SentStatus({ Heading = "h2", title, text, children }: { Heading?: "h2" | "h3"; title: string; text: string; children?: ReactNode }) {
  return (
    <div role="status" className="border-l-4 border-success bg-white px-5 py-5 shadow-sm">
      <Heading className="flex items-center gap-2 text-2xl font-semibold text-success">
        <CircleCheck aria-hidden="true" className="size-6 shrink-0" />
        {` ${title}`}
      </Heading>
      <p className="mt-2 text-lg leading-8 text-ink">{text}</p>
      {children}
    </div>
  );
}

/**
 * Above the form: the fields in error, each a link to its field, under the
 * server's words; or, with no field in error, the words alone (refused,
 * again, error); or nothing.
 */
export function FormProblems({
  form,
  text,
  errorList,
  labels,
  summary,
  href = (name) => `#${form}-${name}`,
}: {
  form: string;
  text: string | undefined;
  errorList: [string, string][];
  labels: Record<string, string>;
  summary: string | undefined;
  href?: (name: string) => string;
}) {
  if (errorList.length) {
    return (
      <div role="alert" aria-labelledby={`${form}-problem`} className="mt-6 border-2 border-error bg-white px-5 py-4">
        <p id={`${form}-problem`} className="font-semibold text-error">
          {text}
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          {errorList.map(([name, message]) => (
            <li key={name}>
              <a className="text-error underline underline-offset-2" href={href(name)}>
                {labels[name]}: {message}
              </a>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (!summary) return null;
  return (
    <p role="alert" className="mt-6 flex items-start gap-2 border-2 border-error bg-white px-5 py-4 font-semibold text-error">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <span>{summary}</span>
    </p>
  );
}

/** A one-line field of a public form: its name, its label, whether it must be filled in, its input type, autocomplete token and length. */
export type InputSpec<Name extends string = string> = {
  name: Name;
  label: string;
  required: boolean;
  type: string;
  autoComplete: string;
  max: number;
};

/** The person's name and e-mail address, asked the same way by the forms that ask for them. */
export const NAME_INPUT = { name: "name", label: "Name", required: true, type: "text", autoComplete: "name", max: 200 } as const;
export const EMAIL_INPUT = { name: "email", label: "E-mail", required: true, type: "email", autoComplete: "email", max: 320 } as const;

/** A one-line field: its label marked (required) or (optional), the input keeping what was typed, and its message. */
export function TextInput({ form, field, value, error }: { form: string; field: InputSpec; value: string; error: string | undefined }) {
  const id = `${form}-${field.name}`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {`${field.label} `}
        <span className="font-normal text-muted">{field.required ? "(required)" : "(optional)"}</span>
      </label>
      <input
        id={id}
        name={field.name}
        type={field.type}
        autoComplete={field.autoComplete}
        maxLength={field.max}
        required={field.required}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
      />
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/**
 * The box that gives consent, with its words and "(required)". Never ticked
 * by the site (CASL): ticked only when the form comes back with the person's
 * own tick (issue 42).
 */
export function ConsentBox(props: { form: string; checked: boolean; error?: string; describedBy?: string; children: ReactNode }) {
  const id = `${props.form}-consent`;
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        name="consent"
        type="checkbox"
        value="yes"
        required
        defaultChecked={props.checked}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.describedBy}
        className="mt-1 size-5 shrink-0 accent-accent"
      />
      <label htmlFor={id} className="text-base leading-7 text-ink">
        {props.children} <span className="text-muted">(required)</span>
      </label>
    </div>
  );
}

/** A field for robots only (hidden from view and from assistive technology, never focused), and the form's token. */
export function RobotFieldAndToken({ form, token }: { form: string; token: string }) {
  return (
    <>
      <div aria-hidden="true" className="absolute top-0 -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={`${form}-reference`}>Leave this field empty</label>
        <input id={`${form}-reference`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <input type="hidden" name={TOKEN_FIELD} value={token} />
    </>
  );
}

export function SubmitButton({ children }: { children: ReactNode }) {
  return (
    <button
      type="submit"
      className="inline-flex items-center gap-2 bg-accent px-7 py-3.5 text-sm font-semibold tracking-[0.16em] text-white uppercase hover:bg-accent-dark"
    >
      {children}
    </button>
  );
}

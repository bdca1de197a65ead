/**
 * The parts the public forms (enquiry, subscription, event registration)
 * share: the confirmation once sent, the problems above the form, a labelled
 * text field with its message, the robots' field with the form's token, and
 * the submit button. `form` is the prefix of every id ("enquiry-email").
 */
import type { ReactNode } from "react";
import { CircleAlert, CircleCheck } from "lucide-react";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "~/lib/forms/enquiry";
import { FieldError } from "../field-error";
import { inputClass, labelClass } from "./form-styles";

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

/** A one-line field: its label marked (required) or (optional), the input keeping what was typed, and its message. */
export function TextInput({
  form,
  name,
  label,
  required,
  type,
  autoComplete,
  maxLength,
  value,
  error,
}: {
  form: string;
  name: string;
  label: string;
  required: boolean;
  type: string;
  autoComplete: string;
  maxLength: number;
  value: string;
  error: string | undefined;
}) {
  const id = `${form}-${name}`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {`${label} `}
        <span className="font-normal text-muted">{required ? "(required)" : "(optional)"}</span>
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        required={required}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
      />
      <FieldError id={`${id}-error`} error={error} />
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

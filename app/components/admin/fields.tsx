/** Form fields: label above, hint and error below (aria-describedby, aria-invalid). */
import { useEffect, useRef, type ReactNode } from "react";
import { FieldError } from "../field-error";
import { inputClass, labelClass } from "./styles";

export { FieldError };

export function describedBy(...ids: unknown[]): string | undefined {
  const list = ids.filter((x): x is string => typeof x === "string" && x !== "").join(" ");
  return list || undefined;
}

type TextFieldProps = {
  name: string;
  label: string;
  id?: string;
  defaultValue?: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  type?: "text" | "email" | "tel" | "search" | "password" | "datetime-local" | "date" | "url";
  inputMode?: "numeric" | "decimal" | "email" | "tel" | "text" | "url";
  autoComplete?: string;
  maxLength?: number;
  multiline?: boolean;
  rows?: number;
  className?: string;
};

/** The aria attributes of a field's control: invalid with an error, required, and described by its hint and its error. */
export function fieldAria(id: string, field: { error?: string; hint?: unknown; required?: boolean }) {
  return {
    "aria-invalid": field.error ? true : undefined,
    "aria-required": field.required ? true : undefined,
    "aria-describedby": describedBy(field.hint && `${id}-hint`, field.error && `${id}-error`),
  };
}

/**
 * A field around its control (children, with fieldAria): the label, marked
 * (required) when it is, then the control, the hint, the error and `after`.
 */
export function FieldFrame(props: {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  className?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={props.className}>
      <label htmlFor={props.id} className={labelClass}>
        {props.label}
        {props.required ? <span className="font-normal text-muted"> (required)</span> : null}
      </label>
      {props.children}
      {props.hint ? (
        <p id={`${props.id}-hint`} className="mt-1 text-sm text-muted">
          {props.hint}
        </p>
      ) : null}
      <FieldError id={`${props.id}-error`} error={props.error} />
      {props.after}
    </div>
  );
}

export function TextField(props: TextFieldProps) {
  const id = props.id ?? `field-${props.name}`;
  const common = {
    id,
    name: props.name,
    defaultValue: props.defaultValue,
    ...fieldAria(id, props),
    maxLength: props.maxLength,
    className: inputClass,
  };
  return (
    <FieldFrame id={id} label={props.label} required={props.required} hint={props.hint} error={props.error} className={props.className}>
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 6} />
      ) : (
        <input {...common} type={props.type ?? "text"} inputMode={props.inputMode} autoComplete={props.autoComplete ?? "off"} />
      )}
    </FieldFrame>
  );
}

/** The code of a two-factor sign-in (`code`, required), which the browser may fill in from an authenticator (one-time-code). */
export function CodeField(props: { label: string; hint: string; maxLength: number; error?: string; inputMode?: "numeric" }) {
  return <TextField name="code" required autoComplete="one-time-code" {...props} />;
}

/** A choice from a list: the prompt ("Choose a category…"), when there is one, first, with no value. */
export function SelectField(props: {
  name: string;
  label: string;
  prompt?: string;
  options: readonly { value: string; label: string }[];
  defaultValue: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
}) {
  const id = `field-${props.name}`;
  return (
    <FieldFrame id={id} label={props.label} required={props.required} hint={props.hint} error={props.error}>
      <select id={id} name={props.name} defaultValue={props.defaultValue} {...fieldAria(id, props)} className={inputClass}>
        {props.prompt === undefined ? null : <option value="">{props.prompt}</option>}
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * A required choice of one (radio buttons) under its legend. With an error
 * the group is marked invalid and its first button takes the focus
 * (focusFirstInvalid).
 */
export function RadioGroup<T extends string>(props: {
  name: string;
  legend: string;
  options: readonly { value: T; label: string }[];
  defaultValue: string;
  error?: string;
  /** The buttons wrap onto more lines when the row is too narrow. */
  wrap?: boolean;
  onChange: (value: T) => void;
}) {
  const errorId = `field-${props.name}-error`;
  return (
    <fieldset role="radiogroup" aria-invalid={props.error ? true : undefined} aria-describedby={props.error ? errorId : undefined}>
      <legend className={labelClass}>
        {props.legend}
        <span className="font-normal text-muted"> (required)</span>
      </legend>
      <div className={props.wrap ? "mt-1 flex flex-wrap gap-6" : "mt-1 flex gap-6"}>
        {props.options.map((option, i) => (
          <label key={option.value} className="flex items-center gap-2">
            <input
              type="radio"
              name={props.name}
              value={option.value}
              defaultChecked={props.defaultValue === option.value}
              data-invalid={props.error && i === 0 ? true : undefined}
              className="size-4"
              onChange={() => props.onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
      <FieldError id={errorId} error={props.error} />
    </fieldset>
  );
}

type StringKeys<V> = { [P in keyof V]-?: V[P] extends string ? P : never }[keyof V] & string;

/**
 * Binds fields to a form's values and errors: `<TextField {...field("title")}
 * label="Title" />` gives the field its name, what it shows and its message.
 */
export function bindFields<V extends object>(values: V, errors: Record<string, string>) {
  return <K extends StringKeys<V>>(name: K) => ({ name, defaultValue: values[name] as string, error: errors[name] });
}

/** Moves focus to the first invalid field (after a check fails). */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  // An invalid field, or the first choice of an invalid group of radio buttons (the group carries aria-invalid).
  const el = form?.querySelector<HTMLElement>('[aria-invalid="true"]:not(fieldset), [data-invalid="true"]');
  el?.focus();
}

/**
 * A ref for a form whose answer may carry field errors: when new errors come
 * back, the focus moves to the first field marked invalid (its message is
 * read with it).
 */
export function useFocusFirstInvalid(errors: unknown) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (errors) focusFirstInvalid(ref.current);
  }, [errors]);
  return ref;
}

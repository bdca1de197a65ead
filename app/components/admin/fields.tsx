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

export function TextField(props: TextFieldProps) {
  const id = props.id ?? `field-${props.name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const common = {
    id,
    name: props.name,
    defaultValue: props.defaultValue,
    "aria-invalid": props.error ? true : undefined,
    "aria-required": props.required ? true : undefined,
    "aria-describedby": describedBy(props.hint && hintId, props.error && errorId),
    maxLength: props.maxLength,
    className: inputClass,
  };
  return (
    <div className={props.className}>
      <label htmlFor={id} className={labelClass}>
        {props.label}
        {props.required ? <span className="font-normal text-muted"> (required)</span> : null}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 6} />
      ) : (
        <input {...common} type={props.type ?? "text"} inputMode={props.inputMode} autoComplete={props.autoComplete ?? "off"} />
      )}
      {props.hint ? (
        <p id={hintId} className="mt-1 text-sm text-muted">
          {props.hint}
        </p>
      ) : null}
      <FieldError id={errorId} error={props.error} />
    </div>
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

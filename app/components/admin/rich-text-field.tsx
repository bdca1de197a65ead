/**
 * A long text written in the TipTap editor (the article body, an event's
 * description, a lawyer's representative matters). Before hydration (or
 * without JavaScript) a plain textarea named `name`; then the editor,
 * imported lazily so only the forms that have one ever fetch it, writing its
 * HTML into a hidden `name`. The textarea names its label by id too: after
 * hydration it is also the fallback shown while the editor loads, when the
 * label is a plain span.
 */
import { lazy, Suspense, useId, useState, type ReactNode } from "react";
import { describedBy, FieldError } from "./fields";
import { useHydrated } from "./hydrated";
import { inputClass, labelClass } from "./styles";

const RichTextEditor = lazy(() => import("./rich-text-editor"));

export function RichTextField({
  name,
  defaultValue,
  error,
  label,
  required = false,
  hint,
  rows,
  mode,
}: {
  name: string;
  defaultValue: string;
  error?: string;
  label: string;
  required?: boolean;
  hint: ReactNode;
  rows: number;
  mode: "article" | "list";
}) {
  const hydrated = useHydrated();
  const [html, setHtml] = useState(defaultValue);
  const labelId = useId();
  const errorId = `field-${name}-error`;
  const hintId = `field-${name}-hint`;
  const textarea = (
    <textarea
      id={`field-${name}`}
      name={name}
      rows={rows}
      aria-labelledby={labelId}
      defaultValue={html}
      onChange={(e) => setHtml(e.target.value)}
      aria-invalid={error ? true : undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy(hintId, error && errorId)}
      className={inputClass}
    />
  );
  const labelText = (
    <>
      {label}
      {required ? <span className="font-normal text-muted"> (required)</span> : null}
    </>
  );
  return (
    <div>
      {hydrated ? (
        <span id={labelId} className={labelClass}>
          {labelText}
        </span>
      ) : (
        <label id={labelId} htmlFor={`field-${name}`} className={labelClass}>
          {labelText}
        </label>
      )}
      <p id={hintId} className="mt-1 text-sm text-muted">
        {hint}
      </p>
      <div className="mt-1">
        {hydrated ? (
          <Suspense fallback={textarea}>
            <input type="hidden" name={name} value={html} />
            <RichTextEditor
              mode={mode}
              initialHtml={html}
              onChange={setHtml}
              labelId={labelId}
              describedBy={describedBy(hintId, error && errorId)}
              invalid={!!error}
            />
          </Suspense>
        ) : (
          textarea
        )}
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

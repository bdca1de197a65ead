/**
 * Representative matters (issue 33): before hydration (or without
 * JavaScript) a plain textarea named `matters`, one matter a line (the
 * server makes it a list); then the TipTap editor in its list mode (bold,
 * italic, lists, links), writing its HTML into a hidden `matters`. The
 * textarea names its label by id too: after hydration it is also the
 * fallback shown while the editor loads, when the label is a plain span.
 */
import { lazy, Suspense, useId, useState } from "react";
import { MATTERS_CONSENT_NOTE } from "~/lib/profile";
import { describedBy, FieldError } from "./fields";
import { useHydrated } from "./hydrated";
import { inputClass, labelClass } from "./styles";

const RichTextEditor = lazy(() => import("./rich-text-editor"));

export function MattersField({ defaultValue, error }: { defaultValue: string; error?: string }) {
  const hydrated = useHydrated();
  const [html, setHtml] = useState(defaultValue);
  const labelId = useId();
  const errorId = "field-matters-error";
  const hintId = "field-matters-hint";
  const textarea = (
    <textarea
      id="field-matters"
      name="matters"
      rows={6}
      aria-labelledby={labelId}
      defaultValue={html}
      onChange={(e) => setHtml(e.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(hintId, error && errorId)}
      className={inputClass}
    />
  );
  return (
    <div>
      {hydrated ? (
        <span id={labelId} className={labelClass}>
          Representative matters
        </span>
      ) : (
        <label id={labelId} htmlFor="field-matters" className={labelClass}>
          Representative matters
        </label>
      )}
      <p id={hintId} className="mt-1 text-sm text-muted">
        Optional: a short list. {MATTERS_CONSENT_NOTE} Without the editor, write one matter a line.
      </p>
      <div className="mt-1">
        {hydrated ? (
          <Suspense fallback={textarea}>
            <input type="hidden" name="matters" value={html} />
            <RichTextEditor
              mode="list"
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

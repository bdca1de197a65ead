/**
 * The article body field. Before hydration (or without JavaScript) a plain
 * textarea named `copy`; then the TipTap editor, imported lazily so only the
 * article form routes ever fetch it, writing its HTML into a hidden `copy`.
 * The textarea names its label by id too: after hydration it is also the
 * fallback shown while the editor loads, when the label is a plain span.
 */
import { lazy, Suspense, useId, useState } from "react";
import { describedBy, FieldError } from "./fields";
import { useHydrated } from "./hydrated";
import { inputClass, labelClass } from "./styles";

const RichTextEditor = lazy(() => import("./rich-text-editor"));

const ARTICLE_HINT =
  "Headings, bold, italic, lists, links, block quotes and pictures (each with a description). Without the editor, separate paragraphs with an empty line; pictures need the editor.";

/** `label`, `hint` and `mode` for another long text (an event's description: the "list" editor, no pictures). */
export function ArticleBody({
  defaultValue,
  error,
  label = "Article body",
  hint = ARTICLE_HINT,
  mode = "article",
}: {
  defaultValue: string;
  error?: string;
  label?: string;
  hint?: string;
  mode?: "article" | "list";
}) {
  const hydrated = useHydrated();
  const [html, setHtml] = useState(defaultValue);
  const labelId = useId();
  const errorId = "field-copy-error";
  const hintId = "field-copy-hint";
  const textarea = (
    <textarea
      id="field-copy"
      name="copy"
      rows={14}
      aria-labelledby={labelId}
      defaultValue={html}
      onChange={(e) => setHtml(e.target.value)}
      aria-invalid={error ? true : undefined}
      aria-required
      aria-describedby={describedBy(hintId, error && errorId)}
      className={inputClass}
    />
  );
  return (
    <div>
      {hydrated ? (
        <span id={labelId} className={labelClass}>
          {label}
          <span className="font-normal text-muted"> (required)</span>
        </span>
      ) : (
        <label id={labelId} htmlFor="field-copy" className={labelClass}>
          {label}
          <span className="font-normal text-muted"> (required)</span>
        </label>
      )}
      <p id={hintId} className="mt-1 text-sm text-muted">
        {hint}
      </p>
      <div className="mt-1">
        {hydrated ? (
          <Suspense fallback={textarea}>
            <input type="hidden" name="copy" value={html} />
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

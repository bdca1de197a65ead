/**
 * The article body field: a required rich text named `copy`
 * (rich-text-field.tsx: a plain textarea before hydration, then the TipTap
 * editor).
 */
import { RichTextField } from "./rich-text-field";

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
  return <RichTextField name="copy" defaultValue={defaultValue} error={error} label={label} required hint={hint} rows={14} mode={mode} />;
}

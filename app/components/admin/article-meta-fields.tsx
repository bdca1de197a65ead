/**
 * The article form's authors, summary, SEO and social-picture fields (kept
 * apart from article-form.tsx; the event form uses the authors and summary
 * too). Plain form controls: they work before hydration and without
 * JavaScript (checkboxes send `authors` once per chosen member; article.ts
 * reads them as a list).
 */
import { SEO_DESCRIPTION_MAX, SEO_TITLE_MAX, SUMMARY_MAX, type ArticleFormValues } from "~/lib/forms/article";
import { bindFields, describedBy, FieldError, TextField } from "./fields";
import { ImageInput } from "./image-input";
import { labelClass } from "./styles";

export type AuthorOption = { id: number; full_name: string; title: string; note: string };

/** Team members to tick: an article's authors, or (`name`, `legend`, `hint`) an event's speakers. */
export function AuthorsField({
  choices,
  chosen,
  error,
  name = "authors",
  legend = "Authors",
  hint = "Team members named on the article, with links to their profiles (optional). Hidden members are named once they are visible.",
}: {
  choices: readonly AuthorOption[];
  chosen: readonly string[];
  error?: string;
  name?: string;
  legend?: string;
  hint?: string;
}) {
  const picked = new Set(chosen);
  return (
    <fieldset aria-describedby={describedBy(`field-${name}-hint`, error && `field-${name}-error`)}>
      <legend className={labelClass}>{legend}</legend>
      <p id={`field-${name}-hint`} className="text-sm text-muted">
        {hint}
      </p>
      {choices.length === 0 ? (
        <p className="mt-2 text-sm text-muted">No team members yet.</p>
      ) : (
        <ul className="mt-2 grid max-h-72 gap-x-6 gap-y-1 overflow-y-auto rounded border border-line bg-white p-3 sm:grid-cols-2">
          {choices.map((m) => (
            <li key={m.id}>
              <label className="flex items-start gap-2 py-1">
                <input
                  type="checkbox"
                  name={name}
                  value={String(m.id)}
                  defaultChecked={picked.has(String(m.id))}
                  aria-invalid={error ? true : undefined}
                  className="mt-1 size-4 shrink-0"
                />
                <span>
                  {m.full_name}
                  <span className="text-sm text-muted">
                    {" "}
                    — {m.title}
                    {m.note ? ` (${m.note})` : ""}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <FieldError id={`field-${name}-error`} error={error} />
    </fieldset>
  );
}

/** The plain-text summary: an article's, or (`rows`, `maxLength`, `hint`) an event's. */
export function SummaryField({
  defaultValue,
  error,
  rows = 3,
  maxLength = SUMMARY_MAX,
  hint = `Optional, plain text, at most ${SUMMARY_MAX} characters: shown on article cards, in the RSS feed and as the page description. When empty, the start of the article is used.`,
}: {
  defaultValue: string;
  error?: string;
  rows?: number;
  maxLength?: number;
  hint?: string;
}) {
  return (
    <TextField
      name="summary"
      label="Summary"
      defaultValue={defaultValue}
      error={error}
      multiline
      rows={rows}
      maxLength={maxLength}
      hint={hint}
    />
  );
}

export function SearchAndSocialFields(props: {
  values: ArticleFormValues;
  errors: Record<string, string>;
  currentSocialImage?: { url: string; alt: string };
}) {
  const { values, errors } = props;
  const field = bindFields(values, errors);
  return (
    <fieldset className="space-y-6 rounded border border-line p-4">
      <legend className={`${labelClass} px-1`}>Search engines and link previews (optional)</legend>
      <TextField
        {...field("seo_title")}
        label="SEO title"
        maxLength={SEO_TITLE_MAX}
        hint="The page title in search results and link previews; the article's title when empty. About 60 characters are shown."
      />
      <TextField
        {...field("seo_description")}
        label="SEO description"
        multiline
        rows={3}
        maxLength={SEO_DESCRIPTION_MAX}
        hint={`At most ${SEO_DESCRIPTION_MAX} characters; the summary (or the start of the article) when empty. About 160 characters are shown.`}
      />
      <ImageInput
        name="social_photo"
        label="Social picture"
        error={errors.social_photo}
        current={props.currentSocialImage}
        hint="Shown when the article is shared (cut to 1200×630); the article's photo when none is chosen."
      />
      {props.currentSocialImage ? (
        <label className="flex items-center gap-2">
          <input type="checkbox" name="remove_social_photo" className="size-4" />
          Remove the social picture (the article's photo is used)
        </label>
      ) : null}
    </fieldset>
  );
}

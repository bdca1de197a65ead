/** The article form (create and edit). Pinned is forced off and disabled when the article is not news. */
import { useState } from "react";
import { ARTICLE_LISTS, articleSchema, type ArticleFormValues } from "~/lib/forms/article";
import { MSG } from "~/lib/forms/messages";
import { ARTICLE_CATEGORIES } from "~/lib/practice";
import { ArticleBody } from "./article-body";
import { AuthorsField, SearchAndSocialFields, SummaryField, type AuthorOption } from "./article-meta-fields";
import { useClientCheck } from "./client-check";
import { bindFields, RadioGroup, SelectField, TextField, useFocusFirstInvalid } from "./fields";
import { EditorForm, SaveBar } from "./editor-form";
import { useHydrated } from "./hydrated";
import { ImageInput } from "./image-input";
import { PublishStateFields } from "./publish-state-fields";

const CATEGORY_LABELS: Record<string, string> = { insurance: "Insurance", construction: "Construction", cyber: "Cyber", events: "Events" };
const CATEGORY_OPTIONS = ARTICLE_CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }));
const NEWS_OPTIONS = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
] as const;

export function ArticleForm(props: {
  mode: "create" | "edit";
  values: ArticleFormValues;
  errors?: Record<string, string>;
  currentImage?: { url: string; alt: string };
  /** The version the form shows (edit): a save over a newer one is refused. */
  version?: number;
  /** Team members offered as authors. */
  authorChoices: readonly AuthorOption[];
  currentSocialImage?: { url: string; alt: string };
}) {
  const hydrated = useHydrated();
  const [news, setNews] = useState(props.values.news);
  const [pinned, setPinned] = useState(props.values.priority);
  const { clientErrors, onSubmit } = useClientCheck({
    schema: articleSchema,
    lists: ARTICLE_LISTS,
    extra: (data): Record<string, string> => {
      const photo = data.get("photo");
      if (props.mode === "create" && (!photo || typeof photo === "string" || photo.size === 0)) return { photo: MSG.articleImageRequired };
      return {};
    },
    status: (errors) => ({
      tone: "error",
      text:
        Object.keys(errors).length === 1 && errors.photo === MSG.articleImageRequired
          ? MSG.articleImageRequired
          : Object.keys(errors).some((k) => k !== "photo") || errors.photo === MSG.articleImageRequired
            ? MSG.missingFields
            : MSG.checkFields,
    }),
  });
  const errors = clientErrors ?? props.errors ?? {};
  const formRef = useFocusFirstInvalid(props.errors && Object.keys(props.errors).length ? props.errors : undefined);
  const v = props.values;
  const field = bindFields(v, errors);
  const pinDisabled = hydrated && news !== "yes";

  return (
    <EditorForm formRef={formRef} onSubmit={onSubmit} version={props.version}>
      <TextField {...field("title")} label="Title" required maxLength={300} />
      <ImageInput label="Photo" required={props.mode === "create"} error={errors.photo} current={props.currentImage} />
      <SelectField {...field("category")} label="Category" required prompt="Choose a category…" options={CATEGORY_OPTIONS} />
      <RadioGroup
        {...field("news")}
        legend="News"
        options={NEWS_OPTIONS}
        onChange={(option) => {
          setNews(option);
          if (option === "no") setPinned(false);
        }}
      />
      <div>
        <label className="flex items-center gap-2 font-semibold">
          <input
            type="checkbox"
            name="priority"
            checked={pinned && !pinDisabled}
            onChange={(e) => setPinned(e.target.checked)}
            disabled={pinDisabled}
            aria-describedby="field-priority-hint"
            className="size-4"
          />
          Pin to top
        </label>
        <p id="field-priority-hint" className="mt-1 text-sm text-muted">
          Only news articles can be pinned; pinned news is listed first.
        </p>
      </div>
      <AuthorsField choices={props.authorChoices} chosen={v.authors} error={errors.authors} />
      <ArticleBody defaultValue={v.copy} error={errors.copy} />
      <SummaryField defaultValue={v.summary} error={errors.summary} />
      <SearchAndSocialFields values={v} errors={errors} currentSocialImage={props.currentSocialImage} />
      <PublishStateFields status={v.status} publishAt={v.publish_at} errors={errors} noun="article" />
      <SaveBar label={props.mode === "create" ? "ADD ARTICLE" : "SAVE CHANGES"} />
    </EditorForm>
  );
}

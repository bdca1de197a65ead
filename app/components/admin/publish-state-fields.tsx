/**
 * Draft, scheduled or published, and the publish time of a scheduled item:
 * the editorial state of an article's or an event's form. The time field is
 * hidden unless "Scheduled" is chosen (shown without JavaScript).
 */
import { useState } from "react";
import { ARTICLE_STATUS_LABELS, type ArticleStatus } from "~/lib/forms/article";
import { describedBy, FieldError } from "./fields";
import { useHydrated } from "./hydrated";
import { inputClass, labelClass } from "./styles";

export function PublishStateFields(props: {
  status: ArticleStatus;
  publishAt: string;
  errors: Record<string, string>;
  /** "article" or "event": the hint says what goes live. */
  noun: string;
}) {
  const hydrated = useHydrated();
  const [status, setStatus] = useState<ArticleStatus>(props.status);
  const { errors } = props;
  return (
    <>
      <fieldset aria-describedby={errors.status ? "field-status-error" : undefined}>
        <legend className={labelClass}>Status</legend>
        <div className="mt-1 flex flex-wrap gap-6">
          {(Object.keys(ARTICLE_STATUS_LABELS) as ArticleStatus[]).map((option) => (
            <label key={option} className="flex items-center gap-2">
              <input
                type="radio"
                name="status"
                value={option}
                defaultChecked={props.status === option}
                className="size-4"
                onChange={() => setStatus(option)}
              />
              {ARTICLE_STATUS_LABELS[option]}
            </label>
          ))}
        </div>
        <FieldError id="field-status-error" error={errors.status} />
      </fieldset>
      <div hidden={hydrated && status !== "scheduled"}>
        <label htmlFor="field-publish_at" className={labelClass}>
          Publish time<span className="font-normal text-muted"> (Toronto time; for a scheduled {props.noun})</span>
        </label>
        <input
          id="field-publish_at"
          name="publish_at"
          type="datetime-local"
          defaultValue={props.publishAt}
          aria-invalid={errors.publish_at ? true : undefined}
          aria-describedby={describedBy("field-publish_at-hint", errors.publish_at && "field-publish_at-error")}
          className={inputClass}
        />
        <p id="field-publish_at-hint" className="mt-1 text-sm text-muted">
          The {props.noun} goes live within a minute of this time.
        </p>
        <FieldError id="field-publish_at-error" error={errors.publish_at} />
      </div>
    </>
  );
}

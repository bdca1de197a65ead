/** A picture field: the chosen file's size in KB and a preview; the current picture when editing. */
import { useEffect, useState } from "react";
import { IMAGE_ACCEPT, IMAGE_FORMATS_TEXT, IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "~/lib/forms/messages";
import { describedBy, FieldError } from "./fields";
import { imageInputClass, labelClass } from "./styles";

export function ImageInput(props: {
  name?: string;
  label: string;
  required?: boolean;
  error?: string;
  current?: { url: string; alt: string };
  portrait?: boolean;
  /** What the picture is for, said before the accepted formats. */
  hint?: string;
  onLocalError?: (message: string | null) => void;
}) {
  const name = props.name ?? "photo";
  const id = `field-${name}`;
  const [chosen, setChosen] = useState<{ url: string; kb: number; name: string } | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  useEffect(() => () => (chosen ? URL.revokeObjectURL(chosen.url) : undefined), [chosen]);
  const error = localError ?? props.error;
  const frame = props.portrait ? "aspect-[4/5] w-32" : "aspect-video w-56";

  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {props.label}
        {props.required ? <span className="font-normal text-muted"> (required)</span> : null}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={IMAGE_ACCEPT}
        className={imageInputClass}
        aria-invalid={error ? true : undefined}
        aria-required={props.required ? true : undefined}
        aria-describedby={describedBy(`${id}-hint`, chosen && `${id}-size`, error && `${id}-error`)}
        onChange={(e) => {
          const file = e.target.files?.[0];
          setChosen(file ? { url: URL.createObjectURL(file), kb: Math.max(1, Math.round(file.size / 1024)), name: file.name } : null);
          const tooBig = file && file.size > MAX_IMAGE_BYTES ? IMAGE_TOO_LARGE : null;
          setLocalError(tooBig);
          props.onLocalError?.(tooBig);
        }}
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
        {props.hint ? `${props.hint} ` : ""}
        {IMAGE_FORMATS_TEXT}
      </p>
      {chosen ? (
        <p id={`${id}-size`} className="mt-1 text-sm text-ink" data-testid="file-size">
          {chosen.name}: {chosen.kb.toLocaleString("en-CA")} KB
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error ?? undefined} />
      <div className="mt-2 flex flex-wrap gap-4">
        {chosen ? (
          <figure>
            {/* eslint-disable-next-line jsx-a11y/img-redundant-alt -- the file is whatever the person chose: the text says what it is, a preview of their choice. */}
            <img src={chosen.url} alt="Preview of the chosen picture" className={`${frame} rounded border border-line object-cover`} />
            <figcaption className="text-sm text-muted">New picture</figcaption>
          </figure>
        ) : null}
        {props.current ? (
          <figure>
            <img src={props.current.url} alt={props.current.alt} className={`${frame} rounded border border-line object-cover`} />
            <figcaption className="text-sm text-muted">Current picture</figcaption>
          </figure>
        ) : null}
      </div>
    </div>
  );
}

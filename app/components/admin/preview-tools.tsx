/** Edit screens: preview as the public would see it, and share-a-preview links (made, listed, revoked). */
import { Form } from "react-router";
import { firmDateTimeText } from "~/lib/firm-time";
import { btnSecondary } from "./styles";

export function PreviewTools(props: {
  previewHref: string;
  isPublic: boolean;
  publicHref: string;
  shareUrl?: string;
  links: { id: number; created_by: string; created_at: string | Date; expires_at: string | Date }[];
}) {
  return (
    <section aria-labelledby="preview-tools" className="mb-8 rounded border border-line p-4">
      <h2 id="preview-tools" className="font-semibold">
        Preview
      </h2>
      <p className="mt-1 text-muted">{props.isPublic ? "Shown on the public site." : "Not shown on the public site."}</p>
      <p className="mt-2 flex flex-wrap gap-4">
        <a href={props.previewHref} className="font-semibold text-accent underline" target="_blank" rel="noreferrer">
          Preview<span className="sr-only"> (opens in a new tab)</span>
        </a>
        {props.isPublic ? (
          <a href={props.publicHref} className="font-semibold text-accent underline" target="_blank" rel="noreferrer">
            View the public page<span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : null}
      </p>
      <Form method="post" className="mt-3" aria-label="Share a preview">
        <input type="hidden" name="intent" value="share-preview" />
        <button type="submit" className={btnSecondary}>
          Share a preview
        </button>
      </Form>
      {props.shareUrl ? (
        <p className="mt-3">
          <label htmlFor="share-url" className="block font-semibold">
            Preview link (7 days; copy it now)
          </label>
          <input
            id="share-url"
            readOnly
            value={props.shareUrl}
            className="mt-1 w-full rounded border border-line px-2 py-1 font-mono text-sm"
          />
        </p>
      ) : null}
      {props.links.length ? (
        <ul className="mt-3 space-y-2" aria-label="Preview links">
          {props.links.map((l) => (
            <li key={l.id} className="flex flex-wrap items-center gap-3 text-sm">
              <span>
                Made by {l.created_by} on {firmDateTimeText(l.created_at)}, works until {firmDateTimeText(l.expires_at)}
              </span>
              <Form method="post" aria-label={`Revoke the link made on ${firmDateTimeText(l.created_at)}`}>
                <input type="hidden" name="intent" value="revoke-preview" />
                <input type="hidden" name="link" value={l.id} />
                <button type="submit" className="font-semibold text-error underline">
                  Revoke<span className="sr-only"> the link made on {firmDateTimeText(l.created_at)}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The editor's "Insert picture" dialog: a picture and its description (alt
 * text, required) are sent to /dashboard/articles/pictures (the article
 * picture pipeline); the answer's src, alt, width and height become an image
 * in the body. A native modal <dialog>: the page behind is inert, Escape or
 * Cancel closes it, and the focus goes back where it came from. Its fields
 * have no name, so the article form around it never sends them.
 */
import { useId, useRef, useState } from "react";
import { BODY_PICTURE_TEXT, checkAlt, MAX_ALT } from "~/lib/body-pictures";
import { AUTOSAVE_TEXT } from "~/lib/forms/autosave";
import { IMAGE_ACCEPT, IMAGE_FORMATS_TEXT, IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, MSG } from "~/lib/forms/messages";
import { fieldAria, FieldFrame } from "./fields";
import { btnPrimary, btnSecondary, imageInputClass, inputClass } from "./styles";

export const BODY_PICTURE_URL = "/dashboard/articles/pictures";

export type InsertedPicture = { src: string; alt: string; width: number; height: number };

type Answer = Partial<InsertedPicture> & { error?: string; errors?: Record<string, string> };

export function InsertPictureDialog({ onInsert, onClose }: { onInsert: (picture: InsertedPicture) => void; onClose: () => void }) {
  const ids = useId();
  const dialog = useRef<HTMLDialogElement | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const altInput = useRef<HTMLInputElement>(null);
  const pending = useRef<AbortController | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const fileId = `${ids}-file`;
  const altId = `${ids}-alt`;

  function showErrors(found: Record<string, string>, text = "") {
    setErrors(found);
    setMessage(text);
    if (found.picture) fileInput.current?.focus();
    else if (found.alt) altInput.current?.focus();
  }

  async function insert() {
    if (busy) return;
    const file = fileInput.current?.files?.[0];
    const alt = checkAlt(altInput.current?.value);
    const found: Record<string, string> = {};
    if (!file || file.size === 0) found.picture = BODY_PICTURE_TEXT.fileRequired;
    else if (file.size > MAX_IMAGE_BYTES) found.picture = IMAGE_TOO_LARGE;
    if (!alt.ok) found.alt = alt.message;
    if (Object.keys(found).length || !file || !alt.ok) return showErrors(found);
    const body = new FormData();
    body.append("picture", file);
    body.append("alt", alt.alt);
    const controller = new AbortController();
    pending.current = controller;
    setBusy(true);
    setErrors({});
    setMessage("Uploading the picture…");
    let answer: Answer | undefined;
    let status = 0;
    try {
      const res = await fetch(BODY_PICTURE_URL, {
        method: "POST",
        body,
        signal: controller.signal,
        headers: { Accept: "application/json" },
      });
      status = res.status;
      answer = (res.headers.get("content-type") ?? "").includes("json") ? ((await res.json()) as Answer) : undefined;
    } catch {
      if (controller.signal.aborted) return;
    } finally {
      pending.current = null;
      setBusy(false);
    }
    if (status === 200 && answer?.src && answer.width && answer.height) {
      // Closed first: while the modal is open the editor behind it is inert and cannot take the focus.
      dialog.current?.close();
      onInsert({ src: answer.src, alt: answer.alt ?? alt.alt, width: answer.width, height: answer.height });
      return;
    }
    if (status === 401) return showErrors({}, `${AUTOSAVE_TEXT.sessionEnded} ${AUTOSAVE_TEXT.sessionEndedKept}`);
    showErrors(answer?.errors ?? {}, answer?.errors && Object.keys(answer.errors).length ? "" : (answer?.error ?? MSG.imageUploadError));
  }

  return (
    <dialog
      ref={(el) => {
        dialog.current = el;
        if (el && !el.open) {
          el.showModal();
          fileInput.current?.focus();
        }
      }}
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-intro`}
      className="m-auto w-[min(92vw,32rem)] rounded bg-white p-6 text-ink shadow-xl backdrop:bg-ink/60"
      onClose={() => {
        pending.current?.abort();
        onClose();
      }}
      data-testid="insert-picture-dialog"
    >
      <h2 id={`${ids}-title`} className="font-serif text-xl font-semibold text-ink">
        Insert picture
      </h2>
      <p id={`${ids}-intro`} className="mt-1 text-sm text-muted">
        The picture goes where the cursor is in the article body.
      </p>
      <div className="mt-4 space-y-4">
        <FieldFrame id={fileId} label="Picture" required hint={IMAGE_FORMATS_TEXT} error={errors.picture}>
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            accept={IMAGE_ACCEPT}
            {...fieldAria(fileId, { error: errors.picture, hint: true, required: true })}
            className={imageInputClass}
          />
        </FieldFrame>
        <FieldFrame
          id={altId}
          label="Description (alt text)"
          required
          hint="What the picture shows, for people who cannot see it."
          error={errors.alt}
        >
          <input
            ref={altInput}
            id={altId}
            type="text"
            maxLength={MAX_ALT}
            {...fieldAria(altId, { error: errors.alt, hint: true, required: true })}
            className={inputClass}
            onKeyDown={(e) => {
              // Enter inserts the picture; it must not send the article form around the dialog.
              if (e.key === "Enter") {
                e.preventDefault();
                void insert();
              }
            }}
          />
        </FieldFrame>
        <p role="status" aria-live="polite" className={`text-sm font-semibold ${busy ? "text-ink" : "text-error"}`}>
          {message}
        </p>
      </div>
      <div className="mt-4 flex justify-end gap-3">
        <button type="button" className={btnSecondary} onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button type="button" className={btnPrimary} disabled={busy} onClick={() => void insert()}>
          Insert picture
        </button>
      </div>
    </dialog>
  );
}

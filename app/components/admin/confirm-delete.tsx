/**
 * Delete with the confirmation "Are you sure you want to delete this?".
 * With JavaScript: a modal <dialog> (role alertdialog) whose Delete button posts
 * intent=delete and the id. Without: the button asks the server for a
 * confirmation panel (?confirm=id), whose Delete button posts the same form.
 */
import { Trash2 } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { MSG } from "~/lib/forms/messages";
import { useDialogOpenings } from "./dialog-openings";
import { btnDanger, btnPrimary, btnSecondary } from "./styles";

/** The list's search and page, kept through the confirmation and the delete (hidden fields). */
function ListPlace({ q, page }: { q: string; page?: number }) {
  return (
    <>
      {q ? <input type="hidden" name="q" value={q} /> : null}
      {page && page > 1 ? <input type="hidden" name="page" value={page} /> : null}
    </>
  );
}

export function DeleteForm({
  id,
  q,
  page,
  label,
  className = "",
}: {
  id: number;
  q: string;
  page?: number;
  label: string;
  className?: string;
}) {
  return (
    <Form method="post" aria-label={`Confirm: ${label}`} className={className}>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
      <ListPlace q={q} page={page} />
      <button type="submit" className={btnDanger} aria-label={label}>
        <Trash2 aria-hidden="true" className="size-4" /> Delete
      </button>
    </Form>
  );
}

export function ConfirmDelete({ id, name, q, page }: { id: number; name: string; q: string; page?: number }) {
  const { opening, open, close } = useDialogOpenings();
  const trigger = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDialogElement | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const ids = useId();
  // The dialog stays open (the page behind it inert) until the server has answered the delete: leaving the page in
  // that moment would cancel the request. It then closes, unless the list it was in has gone with the row.
  const navigation = useNavigation();
  const deleting =
    navigation.state !== "idle" && navigation.formData?.get("intent") === "delete" && navigation.formData.get("id") === String(id);
  useEffect(() => {
    if (!deleting) dialog.current?.close();
  }, [deleting]);
  return (
    <>
      <Form method="get" aria-label={`Delete ${name}`}>
        <input type="hidden" name="confirm" value={id} />
        <ListPlace q={q} page={page} />
        <button
          ref={trigger}
          type="submit"
          className={btnDanger}
          aria-label={`Delete ${name}`}
          aria-haspopup="dialog"
          onClick={(event) => {
            event.preventDefault();
            open();
          }}
        >
          <Trash2 aria-hidden="true" className="size-4" /> Delete
        </button>
      </Form>
      {opening !== null ? (
        // A modal <dialog>: the rest of the page is inert while it is open (nothing behind it is reached by Tab or
        // by a screen reader), Escape closes it, and the focus goes back to the Delete button that opened it.
        <dialog
          key={opening}
          ref={(el) => {
            dialog.current = el;
            if (el && !el.open) {
              el.showModal();
              cancel.current?.focus();
            }
          }}
          role="alertdialog"
          aria-modal="true"
          aria-labelledby={`${ids}-title`}
          aria-describedby={`${ids}-name`}
          aria-busy={deleting || undefined}
          className="m-auto w-[min(92vw,28rem)] rounded bg-white p-6 text-ink shadow-xl backdrop:bg-ink/60"
          onClose={() => {
            close();
            trigger.current?.focus();
          }}
        >
          <h2 id={`${ids}-title`} className="font-serif text-xl font-semibold text-ink">
            {MSG.deleteConfirm}
          </h2>
          <p id={`${ids}-name`} className="mt-2 text-muted">
            {name}
          </p>
          <div className="mt-6 flex justify-end gap-3">
            <button ref={cancel} type="button" className={btnSecondary} onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <Form
              method="post"
              aria-label={`Confirm: delete ${name}`}
              onSubmit={(event) => {
                if (deleting) event.preventDefault(); // sent once
              }}
            >
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={id} />
              <ListPlace q={q} page={page} />
              <button type="submit" aria-disabled={deleting || undefined} className={`${btnPrimary} bg-error hover:bg-[#861e23]`}>
                {deleting ? "Deleting…" : "Delete"}
              </button>
            </Form>
          </div>
        </dialog>
      ) : null}
    </>
  );
}

/** The confirmation without JavaScript (?confirm=id). */
export function ConfirmPanel({ id, name, q, page, cancelTo }: { id: number; name: string; q: string; page?: number; cancelTo: string }) {
  return (
    <section aria-labelledby="confirm-title" className="mb-6 rounded border-2 border-error bg-white p-5">
      <h2 id="confirm-title" className="text-lg font-semibold">
        {MSG.deleteConfirm}
      </h2>
      <p className="mt-1 text-muted">{name}</p>
      <div className="mt-4 flex gap-3">
        <DeleteForm id={id} q={q} page={page} label={`Delete ${name}`} />
        <Link to={cancelTo} className={btnSecondary}>
          Cancel
        </Link>
      </div>
    </section>
  );
}

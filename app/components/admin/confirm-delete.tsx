/**
 * Delete with the confirmation "Are you sure you want to delete this?".
 * With JavaScript: a Radix alert dialog whose Delete button posts
 * intent=delete and the id. Without: the button asks the server for a
 * confirmation panel (?confirm=id), whose Delete button posts the same form.
 */
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { Form, Link } from "react-router";
import { MSG } from "~/lib/forms/messages";
import { btnDanger, btnPrimary, btnSecondary } from "./styles";

export function DeleteForm({ id, q, label, className = "" }: { id: number; q: string; label: string; className?: string }) {
  return (
    <Form method="post" className={className}>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
      {q ? <input type="hidden" name="q" value={q} /> : null}
      <button type="submit" className={btnDanger} aria-label={label}>
        <Trash2 aria-hidden="true" className="size-4" /> Delete
      </button>
    </Form>
  );
}

export function ConfirmDelete({ id, name, q }: { id: number; name: string; q: string }) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Form method="get">
        <input type="hidden" name="confirm" value={id} />
        {q ? <input type="hidden" name="q" value={q} /> : null}
        <button
          ref={trigger}
          type="submit"
          className={btnDanger}
          aria-label={`Delete ${name}`}
          aria-haspopup="dialog"
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
        >
          <Trash2 aria-hidden="true" className="size-4" /> Delete
        </button>
      </Form>
      <AlertDialog.Root open={open} onOpenChange={setOpen}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-ink/60" />
          <AlertDialog.Content
            className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded bg-white p-6 shadow-xl"
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              trigger.current?.focus();
            }}
          >
            <AlertDialog.Title className="font-serif text-xl font-semibold text-ink">{MSG.deleteConfirm}</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-muted">{name}</AlertDialog.Description>
            <div className="mt-6 flex justify-end gap-3">
              <AlertDialog.Cancel className={btnSecondary}>Cancel</AlertDialog.Cancel>
              <Form method="post" onSubmit={() => setOpen(false)}>
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={id} />
                {q ? <input type="hidden" name="q" value={q} /> : null}
                <button type="submit" className={`${btnPrimary} bg-error hover:bg-[#861e23]`}>
                  Delete
                </button>
              </Form>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </>
  );
}

/** The confirmation without JavaScript (?confirm=id). */
export function ConfirmPanel({ id, name, q, cancelTo }: { id: number; name: string; q: string; cancelTo: string }) {
  return (
    <section aria-labelledby="confirm-title" className="mb-6 rounded border-2 border-error bg-white p-5">
      <h2 id="confirm-title" className="text-lg font-semibold">
        {MSG.deleteConfirm}
      </h2>
      <p className="mt-1 text-muted">{name}</p>
      <div className="mt-4 flex gap-3">
        <DeleteForm id={id} q={q} label={`Delete ${name}`} />
        <Link to={cancelTo} className={btnSecondary}>
          Cancel
        </Link>
      </div>
    </section>
  );
}

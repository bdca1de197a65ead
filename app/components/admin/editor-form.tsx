import type { FormEventHandler, ReactNode, RefObject } from "react";
import { Form, useNavigation } from "react-router";
import { btnPrimary } from "./styles";

/**
 * The form of the article, event and team member editors: posted with its
 * files, checked by the page (noValidate), named by the page's title, and
 * carrying the version it shows (edit: a save over a newer one is refused).
 * `lead` comes first (the team form's default button for Enter).
 */
export function EditorForm({
  formRef,
  onSubmit,
  version,
  lead,
  children,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  version: number | undefined;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="page-title"
      className="space-y-6"
    >
      {lead}
      {version ? <input type="hidden" name="version" value={version} /> : null}
      {children}
    </Form>
  );
}

/**
 * The editors' save button ("ADD …" or "SAVE CHANGES"), kept in view at the
 * foot of the screen; disabled while the form is being sent, and while
 * `waiting` (the event form's recording upload). `intent` names the button
 * (the team form's staff buttons post other intents).
 */
export function SaveBar({ label, intent, waiting = false }: { label: string; intent?: string; waiting?: boolean }) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="sticky bottom-0 z-10 -mx-4 border-t border-line bg-ground/95 px-4 py-3">
      <button type="submit" name={intent ? "intent" : undefined} value={intent} className={btnPrimary} disabled={busy || waiting}>
        {label}
      </button>
    </div>
  );
}

import type { FormEventHandler, ReactNode, RefObject } from "react";
import { Form } from "react-router";

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

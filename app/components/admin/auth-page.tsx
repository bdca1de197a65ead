/** The frame of the pages around sign-in (login, code, forgot password, e-mailed links): one heading, the status region, the content. */
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useFocusFirstInvalid } from "./fields";
import { StatusRegion } from "./status";
import { btnPrimary, linkClass } from "./styles";
import type { Status } from "~/lib/forms/messages";

export function AuthPage({ title, status, children }: { title: string; status: Status | null | undefined; children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-ground px-4 py-16">
      <div className="w-full max-w-md">
        <h1 className="text-center text-3xl font-semibold">{title}</h1>
        <div className="mt-6">
          <StatusRegion status={status} />
        </div>
        {children}
      </div>
    </main>
  );
}

export const authCard = "mt-4 space-y-5 rounded border border-line bg-white p-6 shadow-sm";

/**
 * The form of a page around sign-in, in its card: posted; when the answer
 * holds field errors the focus moves to the first invalid one. The fields,
 * the button across the card, then a link when there is one.
 */
export function AuthForm({
  errors,
  submit,
  onSubmit,
  link,
  children,
}: {
  /** The field errors of the action's answer (undefined when there are none). */
  errors: unknown;
  submit: string;
  onSubmit?: () => void;
  link?: { to: string; label: string };
  children: ReactNode;
}) {
  const ref = useFocusFirstInvalid(errors);
  const submitting = useNavigation().state === "submitting";
  return (
    <Form ref={ref} method="post" className={authCard} onSubmit={onSubmit}>
      {children}
      <button type="submit" className={`${btnPrimary} w-full`} disabled={submitting}>
        {submit}
      </button>
      {link ? (
        <p className="text-center">
          <Link to={link.to} className={linkClass}>
            {link.label}
          </Link>
        </p>
      ) : null}
    </Form>
  );
}

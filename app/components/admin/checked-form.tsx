import type { FormEventHandler, ReactNode } from "react";
import { Form } from "react-router";
import { useFocusFirstInvalid } from "./fields";

/**
 * A form posted to its page's action and checked by the page first
 * (noValidate; `onSubmit` from useClientCheck). When the action answers with
 * field errors, the focus moves to the first invalid field. Give it the
 * page's form key (useFormKey) as `key`, so a successful post brings a fresh form.
 */
export function CheckedForm({
  errors,
  onSubmit,
  labelledBy,
  className,
  children,
}: {
  /** The errors of the action's answer (undefined when there are none). */
  errors: unknown;
  onSubmit: FormEventHandler<HTMLFormElement>;
  labelledBy: string;
  className: string;
  children: ReactNode;
}) {
  const ref = useFocusFirstInvalid(errors);
  return (
    <Form ref={ref} method="post" noValidate onSubmit={onSubmit} aria-labelledby={labelledBy} className={className}>
      {children}
    </Form>
  );
}

import type { ReactNode } from "react";
import { Form } from "react-router";
import { btnSecondary } from "./styles";

/**
 * A post form of one button that asks the page's action to do `intent` to
 * the item `id` (send a message again, try a failed job again). `formLabel`
 * names the form (a landmark); `buttonLabel`, where given, the button.
 */
export function IntentButton({
  intent,
  id,
  formLabel,
  buttonLabel,
  busy,
  className,
  children,
}: {
  intent: string;
  id: number | string;
  formLabel: string;
  buttonLabel?: string;
  busy: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" aria-label={formLabel} className={className}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={btnSecondary} disabled={busy} aria-label={buttonLabel}>
        {children}
      </button>
    </Form>
  );
}

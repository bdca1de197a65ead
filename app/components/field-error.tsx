/**
 * A form field's error, below the field: the one component for the public
 * forms and the dashboard. Its id is what the field's aria-describedby names;
 * the icon marks it as an error without relying on colour alone.
 */
import { CircleAlert } from "lucide-react";

export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1.5 flex items-start gap-1.5 text-sm font-semibold text-error">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{error}</span>
    </p>
  );
}

import { useRef } from "react";
import { useLocation } from "react-router";

/**
 * A key for a form: it stays the same while an action answers with errors
 * (nothing typed is lost, not even the chosen file) and changes after a
 * redirect, so "the page reloads after a successful create" gives a fresh form.
 */
export function useFormKey(actionData: unknown): string {
  const location = useLocation();
  const key = useRef(location.key);
  if (!actionData) key.current = location.key;
  return key.current;
}

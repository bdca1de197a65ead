import { useState } from "react";
import { useLocation } from "react-router";

/**
 * A key for a form: it stays the same while an action answers with errors
 * (nothing typed is lost, not even the chosen file) and changes after a
 * redirect, so "the page reloads after a successful create" gives a fresh form.
 */
export function useFormKey(actionData: unknown): string {
  const location = useLocation();
  // The key of the last page shown without an action's answer (state kept from an earlier render).
  const [kept, setKept] = useState(location.key);
  if (!actionData && kept !== location.key) setKept(location.key);
  return actionData ? kept : location.key;
}

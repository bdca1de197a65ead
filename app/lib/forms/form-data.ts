/**
 * Turns submitted FormData into the plain object a form schema parses, the
 * same way in the browser (pre-submit check) and in the action.
 * Files are left out; repeated fields listed in `lists` become arrays.
 */
export type FormValues = Record<string, string | string[]>;

export function formValues(form: FormData, lists: readonly string[] = []): FormValues {
  const out: FormValues = {};
  for (const name of lists) out[name] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") continue;
    if (lists.includes(name)) (out[name] as string[]).push(value);
    else if (!(name in out)) out[name] = value;
  }
  return out;
}

/** A text field's value ("" when it is missing or a file). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** Field name -> first message, from a Zod error's issues. */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    out[key] ??= issue.message;
  }
  return out;
}

/** True when at least one error is a "required" one (the spec's "Missing required fields."). */
export function hasMissing(errors: Record<string, string>): boolean {
  return Object.values(errors).some((m) => / is required\.$|^Choose /.test(m));
}

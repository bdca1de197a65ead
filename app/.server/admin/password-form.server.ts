/** Checks a posted new password (typed twice): the form's schema, then the list of common passwords. */
import type { z } from "zod";
import { fieldErrors } from "~/lib/forms/form-data";
import { PASSWORD_MSG } from "~/lib/forms/password";
import { isCommonPassword } from "../auth/password-policy";

export function checkNewPassword<T extends { password: string }>(
  schema: z.ZodType<T>,
  values: unknown,
): { ok: true; data: T } | { ok: false; errors: Record<string, string> } {
  const parsed = schema.safeParse(values);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error.issues) };
  if (isCommonPassword(parsed.data.password)) return { ok: false, errors: { password: PASSWORD_MSG.common } };
  return { ok: true, data: parsed.data };
}

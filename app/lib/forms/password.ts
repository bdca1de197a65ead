/** New passwords (invitation, reset, My account): 12 to 128 characters, typed twice. The common-password check is on the server. */
import { z } from "zod";
import { hasNoNul, nulMessage } from "./fields";

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

export const PASSWORD_MSG = {
  short: `The password must be at least ${PASSWORD_MIN} characters.`,
  long: `The password must be at most ${PASSWORD_MAX} characters.`,
  mismatch: "The two passwords do not match. Type the same password twice.",
  common: "This password is one of the 10,000 most common passwords, which attackers try first. Choose another one.",
  required: "Password is required.",
  current: "Current password is required.",
} as const;

export const newPassword = z
  .string({ error: PASSWORD_MSG.required })
  .min(1, PASSWORD_MSG.required)
  .min(PASSWORD_MIN, PASSWORD_MSG.short)
  .max(PASSWORD_MAX, PASSWORD_MSG.long)
  .refine(hasNoNul, nulMessage("Password"));

export const newPasswordFields = {
  password: newPassword,
  confirm: z.string({ error: "Type the password again." }).max(PASSWORD_MAX + 100, PASSWORD_MSG.long),
};

export function passwordsMatch(v: { password: string; confirm: string }) {
  return v.password === v.confirm;
}

export const setPasswordSchema = z.object(newPasswordFields).refine(passwordsMatch, { message: PASSWORD_MSG.mismatch, path: ["confirm"] });

export const invitationSchema = z
  .object({
    name: z
      .string({ error: "Your name is required." })
      .transform((v) => v.trim())
      .pipe(
        z
          .string()
          .min(1, "Your name is required.")
          .max(100, "Your name must be at most 100 characters.")
          .refine(hasNoNul, nulMessage("Name")),
      ),
    ...newPasswordFields,
  })
  .refine(passwordsMatch, { message: PASSWORD_MSG.mismatch, path: ["confirm"] });

export const changePasswordSchema = z
  .object({
    current: z
      .string({ error: PASSWORD_MSG.current })
      .min(1, PASSWORD_MSG.current)
      .max(256, "The current password must be at most 256 characters."),
    ...newPasswordFields,
  })
  .refine(passwordsMatch, { message: PASSWORD_MSG.mismatch, path: ["confirm"] });

/** A new password typed twice, with its rules as a hint. Values are not sent back after an error (a password is never echoed). */
import { TextField } from "./fields";

export function NewPasswordFields({ errors, label = "New password" }: { errors: Record<string, string>; label?: string }) {
  return (
    <>
      <TextField
        name="password"
        label={label}
        type="password"
        autoComplete="new-password"
        required
        maxLength={256}
        error={errors.password}
        hint="12 to 128 characters. A long phrase is easier to remember than a short password; the 10,000 most common passwords are refused."
      />
      <TextField
        name="confirm"
        label="Type it again"
        type="password"
        autoComplete="new-password"
        required
        maxLength={256}
        error={errors.confirm}
      />
    </>
  );
}

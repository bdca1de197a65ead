/** The password fields of the account pages. Values are not sent back after an error (a password is never echoed). */
import { TextField } from "./fields";

/** The current password, asked before a change to one's account (`id` where a page has more than one). */
export function CurrentPasswordField({ id, error }: { id?: string; error?: string }) {
  return (
    <TextField
      name="current"
      id={id}
      label="Current password"
      type="password"
      autoComplete="current-password"
      required
      maxLength={256}
      error={error}
    />
  );
}

/** A new password typed twice, with its rules as a hint. */
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

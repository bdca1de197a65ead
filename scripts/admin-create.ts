/**
 * `npm run admin:create -- email@example.com` creates a staff account.
 * The password comes from ADMIN_PASSWORD, a pipe, or a prompt (12-128 characters).
 */
import { systemActor } from "~/.server/db/audit";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/.server/auth/password";
import { readPassword, runScript, UsageError } from "./cli";

await runScript(async () => {
  const email = process.argv[2] ?? process.env.ADMIN_EMAIL;
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new UsageError("Usage: npm run admin:create -- staff@example.com   (password from ADMIN_PASSWORD, stdin or a prompt)");
  }
  const password = process.env.ADMIN_PASSWORD || (await readPassword("Password (12-128 characters): "));
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new UsageError(`The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`);
  }
  const created = await createStaffAccount(email, password, "Staff", "owner", systemActor("npm run admin:create"));
  console.log(
    created
      ? `Staff account ${email} created.`
      : `A staff account for ${email} already exists (use npm run admin:password to change its password).`,
  );
});

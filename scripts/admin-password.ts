/**
 * `npm run admin:password -- email@example.com` sets a new password for a
 * staff account and ends all of its sessions.
 */
import { systemActor } from "~/.server/db/audit";
import { resetStaffPassword } from "~/.server/auth/staff-accounts";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/.server/auth/password";
import { readPassword, runScript, UsageError } from "./cli";

await runScript(async () => {
  const email = process.argv[2];
  if (!email)
    throw new UsageError("Usage: npm run admin:password -- staff@example.com   (new password from NEW_PASSWORD, stdin or a prompt)");
  const password = process.env.NEW_PASSWORD || (await readPassword("New password (12-128 characters): "));
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new UsageError(`The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`);
  }
  if (!(await resetStaffPassword(email, password, systemActor("npm run admin:password"))))
    throw new UsageError(`No staff account for ${email}.`);
  console.log(`Password changed for ${email}; all of its sessions were ended.`);
});

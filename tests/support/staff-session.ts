/** A signed-in staff member for the integration tests: the account made with a role, signed in, and its cookie header. */
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { signIn } from "~/.server/auth/sign-in";
import type { Role } from "~/.server/auth/roles";

export const STAFF_PASSWORD = "a-long-enough-password";

/** The cookies a response sets, as a request's Cookie header (cookies it clears left out). */
export function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !/=$/.test(c))
    .join("; ");
}

/** Signs in `email`'s existing account with `password` from `ip`; returns its Cookie header. */
export async function signInAs(email: string, password = STAFF_PASSWORD, ip = "192.0.2.1"): Promise<string> {
  const result = await signIn(new Request("http://localhost:3000/admin"), email, password, ip);
  if (result.ok !== true) throw new Error(`sign-in failed for ${email}: ${JSON.stringify(result)}`);
  return cookiesOf(result.headers);
}

/** Makes `email`'s account (named `name`) with `role` and signs it in from `ip`; returns its Cookie header. */
export async function signedIn(email: string, role: Role = "owner", ip = "192.0.2.1", name = "Staff"): Promise<string> {
  await createStaffAccount(email, STAFF_PASSWORD, name, role);
  return signInAs(email, STAFF_PASSWORD, ip);
}

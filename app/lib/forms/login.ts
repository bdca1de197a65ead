/** The sign-in form: email and password required; nothing else is checked before the auth service. */
import { z } from "zod";
import { hasNoNul, nulMessage } from "./fields";

export const loginSchema = z.object({
  email: z
    .string({ error: "Email is required." })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, "Email is required.").max(320, "Email must be at most 320 characters.").refine(hasNoNul, nulMessage("Email"))),
  password: z
    .string({ error: "Password is required." })
    .min(1, "Password is required.")
    .max(256, "Password must be at most 256 characters."),
});

/** Where to go after sign-in: only a path on this site ("/…", not "//…"); else the dashboard. */
export function safeRedirect(target: unknown, fallback = "/dashboard"): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- a control character in an address is exactly what this refuses.
  if (target.length > 1000 || /[\u0000-\u001f]/.test(target)) return fallback;
  return target;
}

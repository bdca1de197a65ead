/** Small Zod building blocks shared by the form schemas (browser and server). */
import { z } from "zod";

/** PostgreSQL text cannot hold a NUL character (U+0000): refused as input, never sent to the database. */
export const hasNoNul = (v: string) => !v.includes("\u0000");
export const nulMessage = (label: string) => `${label} contains a character that cannot be saved (U+0000). Remove it and try again.`;

/** A trimmed text field; required unless `optional`; capped at `max` characters. */
export function text(label: string, max: number, options: { optional?: boolean } = {}) {
  const base = z
    .string({ error: `${label} is required.` })
    .transform((v) => v.trim())
    .pipe(z.string().max(max, `${label} must be at most ${max} characters.`).refine(hasNoNul, nulMessage(label)));
  if (options.optional) return z.preprocess((v) => (v == null ? "" : v), base);
  return base.pipe(z.string().min(1, `${label} is required.`));
}

export function email(label: string) {
  return text(label, 320).pipe(z.email(`Enter a valid email address, such as name@example.com.`));
}

/** A phone extension: digits only (1 to 6), stored as a number. */
export function extension(label: string) {
  return text(label, 20)
    .pipe(z.string().regex(/^\d{1,6}$/, `${label} must be a number (digits only).`))
    .transform((v) => Number(v));
}

/** One page header text (each page key is saved on its own). */
import { z } from "zod";
import { HEADER_KEYS } from "../practice";
import { hasNoNul, nulMessage } from "./fields";

export const MAX_HEADER_TEXT = 2000;

export const headerSchema = z.object({
  name: z.enum(HEADER_KEYS, { error: "Unknown page." }),
  header_text: z
    .string({ error: "Header text is required." })
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .max(MAX_HEADER_TEXT, `Header text must be at most ${MAX_HEADER_TEXT} characters.`)
        .refine(hasNoNul, nulMessage("Header text")),
    ),
});
export type HeaderForm = z.infer<typeof headerSchema>;

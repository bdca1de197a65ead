/** Office hours: start and end, free text, not blank after trimming. */
import { z } from "zod";
import { hasNoNul, nulMessage } from "./fields";
import { MSG } from "./messages";

const time = (label: string) =>
  z
    .string({ error: MSG.hoursBlank })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, MSG.hoursBlank).max(40, `${label} must be at most 40 characters.`).refine(hasNoNul, nulMessage(label)));

export const hoursSchema = z.object({ start_time: time("Start time"), end_time: time("End time") });
export type HoursForm = z.infer<typeof hoursSchema>;

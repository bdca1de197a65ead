import { firmDateTimeText } from "../firm-time";

/** Two people editing one item: the second save is refused with who saved in between and when. */
export function conflictText(savedBy: string | null, savedAt: Date | string | null): string {
  const who = savedBy ?? "someone else";
  const when = savedAt ? ` on ${firmDateTimeText(savedAt)}` : "";
  return `Not saved: ${who} saved this${when} while you were editing. Your changes are still in the form; reload to see the saved version (your changes will be replaced).`;
}

/**
 * Drafts kept while writing (issue 12): the article form's fields as a plain
 * record, checked the same way in the browser (the copy kept in
 * localStorage) and by the autosave route (the copy kept in the database,
 * db/autosaves.ts). A draft is partial by nature: only its shape and size
 * are checked here, the form's own schema runs when it is saved.
 */
import { z } from "zod";
import { MAX_COPY } from "./article";

/** Every other field of the article form is far shorter than the body. */
const MAX_FIELD = 5_000;
const MAX_FIELDS = 60;
/** Repeated fields (checkboxes): at most this many values. */
const MAX_LIST = 200;

const fieldName = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/);
const fieldValue = z.string().max(MAX_COPY + 1_000);

export const autosaveValuesSchema = z
  .record(fieldName, z.union([fieldValue, z.array(z.string().max(MAX_FIELD)).max(MAX_LIST)]))
  .refine((v) => Object.keys(v).length <= MAX_FIELDS, "Too many fields.")
  .refine(
    (v) => Object.entries(v).every(([k, x]) => k === "copy" || typeof x !== "string" || x.length <= MAX_FIELD),
    "A field is too long.",
  )
  .refine((v) => !JSON.stringify(v).includes("\\u0000"), "A field holds a NUL character.");

export type DraftValues = z.infer<typeof autosaveValuesSchema>;

/** Fields never kept in a draft: the edit's version (kept apart), the photo files, the form's bookkeeping. */
const SKIPPED = new Set(["version", "intent"]);

/** The form's fields as a draft: files left out, repeated names become lists. */
export function draftValuesOf(form: FormData): DraftValues {
  const out: DraftValues = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || SKIPPED.has(name) || !/^[a-z][a-z0-9_]{0,39}$/.test(name)) continue;
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** Two drafts hold the same text (key order aside). */
export function sameDraft(a: DraftValues, b: DraftValues): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = a[k] ?? "";
    const y = b[k] ?? "";
    if (JSON.stringify(Array.isArray(x) ? x : [x]) !== JSON.stringify(Array.isArray(y) ? y : [y])) return false;
  }
  return true;
}

/** What the article forms' loaders pass on: who is writing (the browser copy's key) and their working copy. */
export type KeptDraftData = {
  userId: string;
  autosave: { values: DraftValues; baseVersion: number | null; savedAt: string } | null;
};

/** The largest autosave request: a full body, JSON-escaped, and the other fields. */
export const MAX_AUTOSAVE_BYTES = 2 * 1024 * 1024;

export const AUTOSAVE_TEXT = {
  /** requireStaff's own words (auth.ts) for a save refused because the session ended. */
  sessionEnded: "Your session has ended. Sign in again; nothing was saved.",
  sessionEndedKept: "Your text is kept in this browser: sign in again and the form comes back with it.",
  signInAgain: "Sign in again",
  saving: "Saving draft…",
  saved: (time: string) => `Draft saved at ${time}`,
  keptHere: "Draft kept in this browser; it could not be saved to the server just now.",
  restored: (time: string) => `Restored your unsaved changes from ${time}`,
  discard: "Discard them",
  discarded: "Unsaved changes discarded.",
  unavailable: "The draft could not be saved to the server just now; it is kept in this browser.",
  notFound: "This article no longer exists, so its draft cannot be kept.",
} as const;

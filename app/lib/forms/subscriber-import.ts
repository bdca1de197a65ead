/**
 * The subscriber CSV import's rules (issue 42, CASL), pure: which columns a
 * file needs, and whether one row carries evidence of consent. A row needs
 * the address, the kind of consent (express or implied), the date it was
 * given (or the business relationship or enquiry began) and its source or
 * wording; implied consent also needs its basis, which sets its end: two
 * years after a business relationship's date, six months after an enquiry's.
 * A row without it is refused with its reason in words.
 */
import { z } from "zod";
import { addressTooLong, normalizeAddress } from "./subscribe";

/** The largest file accepted (under the reference nginx's 13 MB body limit, so the app answers in words). */
export const IMPORT_MAX_BYTES = 12 * 1024 * 1024;
/** The words for a file over IMPORT_MAX_BYTES (the server's answer, and the screen's before it sends anything). */
export const IMPORT_TOO_LARGE = `The file is too large: at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files and import each.`;
/** The most rows one file may have. */
export const IMPORT_MAX_ROWS = 100_000;
/** Refused rows kept with their reason (the counts go on past it). */
export const IMPORT_REFUSALS_KEPT = 5_000;

/** The columns, as the screen and the README list them: [name, required, what goes in it]. */
export const IMPORT_COLUMNS = [
  ["email", "yes", "The e-mail address."],
  ["consent", "yes", "express or implied."],
  ["consent date", "yes", "When consent was given, or when the business relationship or enquiry took place (YYYY-MM-DD)."],
  ["source", "yes", "Where and how consent was obtained, or its wording (for example: “Signed engagement letter, clause 12”)."],
  ["implied basis", "for implied", "business relationship (consent lasts two years from the date) or enquiry (six months)."],
] as const;

type Column = "email" | "consent" | "date" | "source" | "basis";
/** Header spellings each column is known by (lower case, spaces for - and _). */
const HEADER_NAMES: Record<Column, readonly string[]> = {
  email: ["email", "e mail", "email address", "e mail address", "address"],
  consent: ["consent", "consent kind", "consent type", "kind"],
  date: ["consent date", "date"],
  source: ["source", "consent source", "wording", "consent wording", "source or wording"],
  basis: ["implied basis", "basis"],
};
const REQUIRED: readonly Column[] = ["email", "consent", "date", "source"];
const COLUMN_LABEL: Record<Column, string> = {
  email: "email",
  consent: "consent",
  date: "consent date",
  source: "source",
  basis: "implied basis",
};

export type ImportHeader = Partial<Record<Column, number>>;

/** The columns found in a header row, or the message naming those missing. */
export function importHeader(cells: readonly string[]): { header: ImportHeader } | { missing: string } {
  const header: ImportHeader = {};
  cells.forEach((cell, i) => {
    const name = cell.trim().toLowerCase().replace(/[-_]+/g, " ").replace(/\s+/g, " ");
    for (const [column, names] of Object.entries(HEADER_NAMES) as [Column, readonly string[]][])
      if (header[column] === undefined && names.includes(name)) header[column] = i;
  });
  const missing = REQUIRED.filter((c) => header[c] === undefined);
  if (missing.length)
    return {
      missing: `The file's first row must name the columns. Missing: ${missing.map((c) => `“${COLUMN_LABEL[c]}”`).join(", ")}.`,
    };
  return { header };
}

export type ImpliedBasis = "business relationship" | "enquiry";
export type RowConsent = {
  email: string;
  kind: "express" | "implied";
  date: Date;
  source: string;
  basis: ImpliedBasis | "";
  /** Implied consent's end; null for express consent. */
  expiresAt: Date | null;
};

const address = z.email();
/** When implied consent from `date` ends (CASL s. 10(10): two years after a business relationship, six months after an enquiry). */
export function impliedConsentEnd(date: Date, basis: ImpliedBasis): Date {
  const end = new Date(date.getTime()); // on the calendar
  if (basis === "business relationship") end.setUTCFullYear(end.getUTCFullYear() + 2);
  else end.setUTCMonth(end.getUTCMonth() + 6);
  return end;
}

function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]) ? date : null;
}

function dayText(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** One row's evidence of consent, or the reason it is refused (in words). */
export function checkImportRow(cells: readonly string[], header: ImportHeader, now = new Date()): RowConsent | { reason: string } {
  const cell = (c: Column) => (header[c] === undefined ? "" : (cells[header[c]] ?? "").trim());
  const email = normalizeAddress(cell("email").replace(/^mailto:/i, ""));
  if (!email) return { reason: "No e-mail address." };
  if (!address.safeParse(email).success) return { reason: "Not a valid e-mail address." };
  if (addressTooLong(email)) return { reason: "The address is longer than e-mail allows." };
  const kind = cell("consent").toLowerCase();
  if (!kind) return { reason: "No kind of consent: write express or implied." };
  if (kind !== "express" && kind !== "implied")
    return { reason: `The kind of consent must be express or implied, not “${kind.slice(0, 40)}”.` };
  const dateText = cell("date");
  if (!dateText) return { reason: "No consent date." };
  const date = parseDay(dateText);
  if (!date) return { reason: `The consent date “${dateText.slice(0, 40)}” is not a date written YYYY-MM-DD.` };
  if (date.getTime() > now.getTime()) return { reason: `The consent date ${dayText(date)} is in the future.` };
  const source = cell("source").replace(/\s+/g, " ");
  if (!source) return { reason: "No source or wording of the consent." };
  if (source.length > 1000) return { reason: "The source or wording is longer than 1,000 characters." };
  if (kind === "express") return { email, kind, date, source, basis: "", expiresAt: null };
  const basisText = cell("basis").toLowerCase().replace(/\s+/g, " ");
  if (!basisText) return { reason: "Implied consent needs its basis: business relationship or enquiry." };
  if (basisText !== "business relationship" && basisText !== "enquiry" && basisText !== "inquiry")
    return { reason: `The implied basis must be business relationship or enquiry, not “${basisText.slice(0, 40)}”.` };
  const basis: ImpliedBasis = basisText === "business relationship" ? "business relationship" : "enquiry";
  const expiresAt = impliedConsentEnd(date, basis);
  if (expiresAt.getTime() <= now.getTime()) return { reason: `Implied consent (${basis}) ended on ${dayText(expiresAt)}.` };
  return { email, kind: "implied", date, source, basis, expiresAt };
}

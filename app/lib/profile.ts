/**
 * A lawyer's credentials (issue 33): bar admissions, languages, education,
 * representative matters, memberships and the Law Society of Ontario's
 * certified-specialist designation; the directory's role groups; and the
 * marketing rules the profile form applies (LSO Rules 4.2-1 and 4.3-1).
 * Pure: used by the form (browser and action), the public pages and the PDF.
 */

/** A member's name, title, contact details and bio: the first fields of a profile (saved, in the form, in the PDF bio). */
export type ProfileBasics = { full_name: string; title: string; email: string; extension: number | null; mobile: string; desc: string };

export type Admission = { jurisdiction: string; year: number };
export type Education = { degree: string; school: string; year: number | null };

/**
 * The languages staff choose from (BCP 47 tags: what JSON-LD `knowsLanguage`
 * and the filter's `?language=` carry), the ones most spoken in the Greater
 * Toronto Area first after English and French. Anything else is typed under
 * "Other languages".
 */
export const LANGUAGES = [
  { code: "en", label: "English" },
  { code: "fr", label: "French" },
  { code: "ar", label: "Arabic" },
  { code: "bn", label: "Bengali" },
  { code: "yue", label: "Cantonese" },
  { code: "hr", label: "Croatian" },
  { code: "nl", label: "Dutch" },
  { code: "fa", label: "Farsi" },
  { code: "de", label: "German" },
  { code: "el", label: "Greek" },
  { code: "gu", label: "Gujarati" },
  { code: "he", label: "Hebrew" },
  { code: "hi", label: "Hindi" },
  { code: "hu", label: "Hungarian" },
  { code: "it", label: "Italian" },
  { code: "ja", label: "Japanese" },
  { code: "ko", label: "Korean" },
  { code: "cmn", label: "Mandarin" },
  { code: "pl", label: "Polish" },
  { code: "pt", label: "Portuguese" },
  { code: "pa", label: "Punjabi" },
  { code: "ro", label: "Romanian" },
  { code: "ru", label: "Russian" },
  { code: "sr", label: "Serbian" },
  { code: "so", label: "Somali" },
  { code: "es", label: "Spanish" },
  { code: "tl", label: "Tagalog" },
  { code: "ta", label: "Tamil" },
  { code: "tr", label: "Turkish" },
  { code: "uk", label: "Ukrainian" },
  { code: "ur", label: "Urdu" },
  { code: "vi", label: "Vietnamese" },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]["code"];
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as unknown as readonly [LanguageCode, ...LanguageCode[]];
const LABELS = new Map<string, string>(LANGUAGES.map((l) => [l.code, l.label]));

export function languageLabel(code: string): string | undefined {
  return LABELS.get(code);
}

/** "Tagalog, Swedish" as typed: one name each, trimmed, without repeats. */
export function otherLanguageNames(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter((s) => s && !seen.has(s.toLowerCase()) && seen.add(s.toLowerCase()));
}

/** Every language a member speaks, as shown: the listed ones in the list's order, then the others as typed. */
export function spokenLanguages(member: { languages: readonly string[]; other_languages: string }): { code?: string; label: string }[] {
  const listed = LANGUAGES.filter((l) => member.languages.includes(l.code)).map((l) => ({ code: l.code, label: l.label }));
  return [...listed, ...otherLanguageNames(member.other_languages).map((label) => ({ label }))];
}

/** The directory's role groups (`?role=`), in their order. */
export const ROLES = [
  { value: "partners", label: "Partners" },
  { value: "associates", label: "Associates" },
  { value: "counsel", label: "Counsel" },
  { value: "staff", label: "Staff" },
] as const;
export type Role = (typeof ROLES)[number]["value"];

/**
 * The role group of a title: a title naming a partner (Managing Partner,
 * Client Services Partner, Partner) is a partner; one naming counsel (Counsel,
 * Of Counsel, Senior Counsel) counsel; one naming an associate an associate;
 * everyone else (law clerks, assistants, the office manager) staff.
 */
export function roleOfTitle(title: string): Role {
  const t = title.toLowerCase();
  if (/\bpartner\b/.test(t)) return "partners";
  if (/\bcounsel\b/.test(t)) return "counsel";
  if (/\bassociate\b/.test(t)) return "associates";
  return "staff";
}

/** The Law Society of Ontario's designation, as the profile and the PDF print it. */
export function specialistText(area: string, year: number | null): string {
  return `Certified by the Law Society of Ontario as a Specialist in ${area}${year ? ` (since ${year})` : ""}`;
}

export function hasCertification(m: { specialist_area: string; specialist_year: number | null }): boolean {
  return m.specialist_area.trim() !== "" && m.specialist_year !== null;
}

// ---- The marketing rules (LSO Rules of Professional Conduct 4.2-1 and 4.3-1) ----

/**
 * Words that call someone a specialist: "specialist(s)", "specialize(s|d)",
 * "specializing", "specialization" (and the -ise spellings), "specialty".
 */
const SPECIALIST = /\bspeciali(?:st|sts|[sz]e|[sz]es|[sz]ed|[sz]ing|[sz]ations?|ty|ties)\b|\bspecialt(?:y|ies)\b/i;
/** "expert", "experts", "expertise": allowed once the editor confirms the claim is demonstrably true. */
const EXPERT = /\bexpert(?:s|ise)?\b/i;

export function callsSpecialist(text: string): boolean {
  return SPECIALIST.test(text);
}

export function callsExpert(text: string): boolean {
  return EXPERT.test(text);
}

export const SPECIALIST_MESSAGE = (field: string) =>
  `${field} uses “specialist” (or “specializes”), which the Law Society of Ontario allows only for a lawyer it has certified as a Certified Specialist (Rule 4.3-1). Record this lawyer's certification (area and year) under “Law Society certified specialist”, or reword the ${field.toLowerCase()}.`;

export const EXPERT_WARNING =
  "The title or bio calls this lawyer an expert. The Law Society of Ontario's rules allow marketing only when it is demonstrably true, accurate and verifiable (Rule 4.2-1). Tick the box to confirm, or reword it.";

export const EXPERT_CONFIRM_LABEL = "I confirm that “expert” here is demonstrably true, accurate and verifiable (Rule 4.2-1).";

/** The note shown with representative matters, on the form and the public profile. */
export const MATTERS_CONSENT_NOTE = "Clients are named only with their consent.";

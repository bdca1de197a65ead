/**
 * A team member's credentials (issue 33) as a revision keeps them (every
 * column, as JSON): their text for the History screen's diff, and the values
 * Restore saves again. A revision made before the credentials existed has
 * none of these keys: Restore then leaves the current ones as they are.
 */
import { spokenLanguages, specialistText, type Admission, type Education } from "./profile";

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object";
const textIn = (v: unknown): string => (typeof v === "string" ? v : "");

function admissionsOf(value: unknown): Admission[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isObject)
    .map((a) => ({ jurisdiction: textIn(a.jurisdiction), year: Number(a.year) }))
    .filter((a) => a.jurisdiction && Number.isInteger(a.year));
}

function educationOf(value: unknown): Education[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isObject)
    .map((e) => ({
      degree: textIn(e.degree),
      school: textIn(e.school),
      year: Number.isInteger(e.year) ? Number(e.year) : null,
    }))
    .filter((e) => e.degree || e.school);
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** One line of text for a credential field of a revision (History's diff). */
export function credentialText(field: string, f: Record<string, unknown>): string {
  switch (field) {
    case "admissions":
      return admissionsOf(f.admissions)
        .map((a) => `${a.jurisdiction} (${a.year})`)
        .join("; ");
    case "education":
      return educationOf(f.education)
        .map((e) => [e.degree, e.school, e.year].filter(Boolean).join(", "))
        .join("; ");
    case "languages":
      return spokenLanguages({
        languages: strings(f.languages),
        other_languages: typeof f.other_languages === "string" ? f.other_languages : "",
      })
        .map((l) => l.label)
        .join(", ");
    case "memberships":
      return strings(f.memberships).join("; ");
    case "specialist_area": {
      const area = typeof f.specialist_area === "string" ? f.specialist_area.trim() : "";
      return area ? specialistText(area, typeof f.specialist_year === "number" ? f.specialist_year : null) : "";
    }
    default:
      return "";
  }
}

/** The credentials a revision holds, for Restore: only the keys it has. */
export function credentialsOf(f: Record<string, unknown>) {
  return {
    ...("admissions" in f ? { admissions: admissionsOf(f.admissions) } : {}),
    ...("languages" in f ? { languages: strings(f.languages) } : {}),
    ...("other_languages" in f ? { other_languages: typeof f.other_languages === "string" ? f.other_languages : "" } : {}),
    ...("education" in f ? { education: educationOf(f.education) } : {}),
    ...("matters" in f ? { matters: typeof f.matters === "string" ? f.matters : "" } : {}),
    ...("memberships" in f ? { memberships: strings(f.memberships) } : {}),
    ...("specialist_area" in f ? { specialist_area: typeof f.specialist_area === "string" ? f.specialist_area : "" } : {}),
    ...("specialist_year" in f ? { specialist_year: typeof f.specialist_year === "number" ? f.specialist_year : null } : {}),
  };
}

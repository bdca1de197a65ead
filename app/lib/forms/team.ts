/** The team member form (create and edit) and its support-staff sub-form. */
import { z } from "zod";
import { EXPERTISE_CHOICES, PRACTICE_AREAS } from "../practice";
import { parseFirmLocal, toFirmLocalInput } from "../firm-time";
import {
  callsExpert,
  callsSpecialist,
  EXPERT_WARNING,
  LANGUAGE_CODES,
  SPECIALIST_MESSAGE,
  type Admission,
  type Education,
  type ProfileBasics,
} from "../profile";
import { email, extension, hasNoNul, nulMessage, text } from "./fields";
import { hasMissing } from "./form-data";
import { MSG, type Status } from "./messages";

export const TEAM_LISTS = [
  "AOP",
  "area_details",
  "staff_name",
  "staff_title",
  "staff_email",
  "staff_extension",
  "languages",
  "admission_jurisdiction",
  "admission_year",
  "education_degree",
  "education_school",
  "education_year",
] as const;
export const MAX_STAFF = 30;
export const MAX_ADMISSIONS = 12;
export const MAX_EDUCATION = 10;
export const MAX_MEMBERSHIPS = 20;
/** Representative matters: a short list (HTML as the editor writes it). */
export const MAX_MATTERS = 6000;
/** Blank rows the form offers after the filled ones (more appear with JavaScript, or after a save). */
export const SPARE_ROWS = 1;

export const AREA_LABELS: Record<(typeof PRACTICE_AREAS)[number], string> = {
  insurance: "Insurance",
  construction: "Construction",
  cyber: "Cyber",
};

/** A form value as a list: none, one value or several. */
const asList = (v: unknown): unknown[] => (v == null ? [] : Array.isArray(v) ? (v as unknown[]) : [v]);

const uniqueList = <T extends string>(values: readonly [T, ...T[]], label: string) =>
  z
    .array(z.enum(values, { error: `Choose ${label} from the list.` }))
    .max(values.length)
    .transform((list) => [...new Set(list)]);

/** One support staff entry: all four fields required. */
export const staffEntrySchema = z.object({
  name: text("Staff name", 200),
  title: text("Staff title", 200),
  email: email("Staff email"),
  extension: text("Staff extension", 20),
});
export type StaffEntry = z.infer<typeof staffEntrySchema>;

/** Checks a new support staff entry; the spec's message when any field is blank. */
export function checkStaffEntry(entry: Record<string, unknown>): { ok: true; value: StaffEntry } | { ok: false; message: string } {
  const blank = ["name", "title", "email", "extension"].some((k) => typeof entry[k] !== "string" || !entry[k].trim());
  if (blank) return { ok: false, message: MSG.staffIncomplete };
  const parsed = staffEntrySchema.safeParse(entry);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0].message };
  return { ok: true, value: parsed.data };
}

const list = z.preprocess(asList, z.array(z.string()).max(MAX_STAFF + 1));
const rows = (max: number) => z.preprocess(asList, z.array(z.string().max(400)).max(max + SPARE_ROWS + 5));
const optionalText = (label: string, max: number) => text(label, max, { optional: true });

/** A four-digit year between `from` and `to`, or null when blank; a message otherwise. */
function parseYear(raw: string, from: number, to: number): number | null | string {
  const v = raw.trim();
  if (!v) return null;
  if (!/^\d{4}$/.test(v) || Number(v) < from || Number(v) > to) return `a year between ${from} and ${to}`;
  return Number(v);
}
const thisYear = () => new Date().getFullYear();

/** Bar admissions from the form's rows (a jurisdiction and a year each; blank rows left out), or a message naming the row. */
function readAdmissions(jurisdictions: string[], years: string[]): Admission[] | string {
  const admissions: Admission[] = [];
  for (let i = 0; i < Math.max(jurisdictions.length, years.length); i++) {
    const jurisdiction = (jurisdictions[i] ?? "").trim();
    const yearText = years[i] ?? "";
    if (!jurisdiction && !yearText.trim()) continue;
    if (!jurisdiction) return `Bar admission ${i + 1}: the jurisdiction is required.`;
    if (jurisdiction.length > 120 || !hasNoNul(jurisdiction))
      return `Bar admission ${i + 1}: the jurisdiction must be at most 120 characters.`;
    const year = parseYear(yearText, 1940, thisYear());
    if (typeof year !== "number")
      return `Bar admission ${i + 1}: enter the year of admission, ${year ?? `a year between 1940 and ${thisYear()}`}.`;
    admissions.push({ jurisdiction, year });
  }
  return admissions.length > MAX_ADMISSIONS ? `At most ${MAX_ADMISSIONS} bar admissions.` : admissions;
}

/** Degrees from the form's rows (degree and school required in a filled row, the year optional), or a message naming the row. */
function readEducation(degrees: string[], schools: string[], years: string[]): Education[] | string {
  const education: Education[] = [];
  for (let i = 0; i < Math.max(degrees.length, schools.length, years.length); i++) {
    const degree = (degrees[i] ?? "").trim();
    const school = (schools[i] ?? "").trim();
    const yearText = years[i] ?? "";
    if (!degree && !school && !yearText.trim()) continue;
    if (!degree || !school) return `Education ${i + 1}: the degree and the school are both required.`;
    if (degree.length > 160 || school.length > 160 || !hasNoNul(degree + school))
      return `Education ${i + 1}: the degree and the school must be at most 160 characters each.`;
    const year = parseYear(yearText, 1940, thisYear() + 6);
    if (typeof year === "string") return `Education ${i + 1}: the year must be ${year}, or left empty.`;
    education.push({ degree, school, year });
  }
  return education.length > MAX_EDUCATION ? `At most ${MAX_EDUCATION} degrees.` : education;
}

export const teamMemberSchema = z
  .object({
    full_name: text("Full name", 200),
    title: text("Title", 200),
    email: email("Email"),
    extension: extension("Extension"),
    mobile: text("Mobile", 40, { optional: true }).pipe(
      z.string().regex(/^[0-9+().\s-]*$/, "Mobile may contain only digits, spaces and + ( ) -."),
    ),
    desc: text("Bio", 20_000),
    AOP: z.preprocess(asList, uniqueList(PRACTICE_AREAS, "an area of practice")),
    area_details: z.preprocess(asList, uniqueList(EXPERTISE_CHOICES, "a field of expertise")),
    staff_name: list,
    staff_title: list,
    staff_email: list,
    staff_extension: list,
    visibility: z.preprocess(
      (v) => (v == null || v === "" ? "visible" : v),
      z.enum(["visible", "hidden"], { error: "Choose visible or hidden." }),
    ),
    visible_from: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string().max(40)),
    hidden_from: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string().max(40)),
    admission_jurisdiction: rows(MAX_ADMISSIONS),
    admission_year: rows(MAX_ADMISSIONS),
    languages: z.preprocess(
      asList,
      z
        .array(z.enum(LANGUAGE_CODES, { error: "Choose languages from the list (type any other under Other languages)." }))
        .max(LANGUAGE_CODES.length)
        .transform((l) => [...new Set(l)]),
    ),
    other_languages: optionalText("Other languages", 200),
    education_degree: rows(MAX_EDUCATION),
    education_school: rows(MAX_EDUCATION),
    education_year: rows(MAX_EDUCATION),
    matters: optionalText("Representative matters", MAX_MATTERS),
    memberships: optionalText("Professional memberships", 4000),
    specialist_area: optionalText("Specialist area", 120),
    specialist_year: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string().max(10)),
    confirm_expert: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
  })
  .transform((v, ctx) => {
    const fail = (path: string, message: string) => {
      ctx.addIssue({ code: "custom", path: [path], message });
      return z.NEVER;
    };
    // The credentials and the Law Society's rules are all checked before answering, so one round of corrections covers them.
    let refused = false;
    const refuse = (path: string, message: string) => {
      ctx.addIssue({ code: "custom", path: [path], message });
      refused = true;
    };
    const admissions = readAdmissions(v.admission_jurisdiction, v.admission_year);
    if (typeof admissions === "string") refuse("admissions", admissions);
    const education = readEducation(v.education_degree, v.education_school, v.education_year);
    if (typeof education === "string") refuse("education", education);
    // Memberships: one a line.
    const memberships = [...new Set(v.memberships.split(/\r?\n/).map((l) => l.trim()))].filter(Boolean);
    if (memberships.length > MAX_MEMBERSHIPS) refuse("memberships", `At most ${MAX_MEMBERSHIPS} memberships (one a line).`);
    else if (memberships.some((m) => m.length > 200)) refuse("memberships", "Each membership must be at most 200 characters.");
    // The Law Society's certification: both the area and the year, or neither.
    const specialistYear = parseYear(v.specialist_year, 1980, thisYear());
    if (typeof specialistYear === "string") refuse("specialist_year", `Year certified must be ${specialistYear}.`);
    else if (v.specialist_area && specialistYear === null)
      refuse("specialist_year", "Year certified is required with the specialist area.");
    else if (!v.specialist_area && specialistYear !== null)
      refuse("specialist_area", "Specialist area is required with the year certified.");
    const certified = v.specialist_area !== "" && typeof specialistYear === "number";
    // LSO Rule 4.3-1: "specialist" only for a certified specialist; Rule 4.2-1: "expert" only when demonstrably true.
    if (!certified) {
      for (const [key, label] of [
        ["title", "Title"],
        ["desc", "Bio"],
      ] as const)
        if (callsSpecialist(v[key])) refuse(key, SPECIALIST_MESSAGE(label));
    }
    if ((callsExpert(v.title) || callsExpert(v.desc)) && !v.confirm_expert) refuse("confirm_expert", EXPERT_WARNING);
    if (refused || typeof admissions === "string" || typeof education === "string" || typeof specialistYear === "string") return z.NEVER;
    if (!hasNoNul(v.matters)) return fail("matters", nulMessage("Representative matters"));
    // Planned changes, typed in Toronto time (optional).
    const times: Record<"visible_from" | "hidden_from", Date | null> = { visible_from: null, hidden_from: null };
    for (const [key, label] of [
      ["visible_from", "Visible from"],
      ["hidden_from", "Hidden from"],
    ] as const) {
      if (!v[key].trim()) continue;
      const parsed = parseFirmLocal(v[key], label);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", path: [key], message: parsed.message });
        return z.NEVER;
      }
      times[key] = parsed.date;
    }
    if (times.visible_from && times.hidden_from && times.hidden_from <= times.visible_from) {
      ctx.addIssue({ code: "custom", path: ["hidden_from"], message: "Hidden from must be after Visible from." });
      return z.NEVER;
    }
    const n = v.staff_name.length;
    if (n > MAX_STAFF) {
      ctx.addIssue({ code: "custom", path: ["staff"], message: `At most ${MAX_STAFF} support staff members.` });
      return z.NEVER;
    }
    if (v.staff_title.length !== n || v.staff_email.length !== n || v.staff_extension.length !== n) {
      ctx.addIssue({ code: "custom", path: ["staff"], message: "The support staff list could not be read. Please add the entries again." });
      return z.NEVER;
    }
    const staff: StaffEntry[] = [];
    for (let i = 0; i < n; i++) {
      const checked = checkStaffEntry({
        name: v.staff_name[i],
        title: v.staff_title[i],
        email: v.staff_email[i],
        extension: v.staff_extension[i],
      });
      if (!checked.ok) {
        ctx.addIssue({ code: "custom", path: ["staff"], message: `Support staff ${i + 1}: ${checked.message}` });
        return z.NEVER;
      }
      staff.push(checked.value);
    }
    const {
      staff_name: _a,
      staff_title: _b,
      staff_email: _c,
      staff_extension: _d,
      visibility,
      visible_from: _e,
      hidden_from: _f,
      admission_jurisdiction: _g,
      admission_year: _h,
      education_degree: _i,
      education_school: _j,
      education_year: _k,
      specialist_year: _l,
      confirm_expert: _m,
      ...rest
    } = v;
    return {
      ...rest,
      staff,
      admissions,
      education,
      memberships,
      specialist_year: specialistYear,
      visibility: { visible: visibility === "visible", visibleFrom: times.visible_from, hiddenFrom: times.hidden_from },
    };
  });

export type TeamMemberForm = z.infer<typeof teamMemberSchema>;

/** What the form shows: from a stored member, or as typed (after a failed save). */
export type TeamFormValues = {
  full_name: string;
  title: string;
  email: string;
  extension: string;
  mobile: string;
  desc: string;
  AOP: string[];
  area_details: string[];
  staff: { name: string; title: string; email: string; extension: string }[];
  new_staff?: { name: string; title: string; email: string; extension: string };
  admissions: { jurisdiction: string; year: string }[];
  languages: string[];
  other_languages: string;
  education: { degree: string; school: string; year: string }[];
  matters: string;
  /** One a line. */
  memberships: string;
  specialist_area: string;
  specialist_year: string;
  /** "Expert" confirmed (a stored profile's was, when it was saved). */
  confirm_expert: boolean;
  visibility: "visible" | "hidden";
  /** Toronto time, "YYYY-MM-DDTHH:MM" (datetime-local), or "". */
  visible_from: string;
  hidden_from: string;
};

export const EMPTY_TEAM_VALUES: TeamFormValues = {
  full_name: "",
  title: "",
  email: "",
  extension: "",
  mobile: "",
  desc: "",
  AOP: [],
  area_details: [],
  staff: [],
  admissions: [],
  languages: [],
  other_languages: "",
  education: [],
  matters: "",
  memberships: "",
  specialist_area: "",
  specialist_year: "",
  confirm_expert: false,
  visibility: "visible",
  visible_from: "",
  hidden_from: "",
};

const str = (v: unknown, max = 20_000) => (typeof v === "string" ? v.slice(0, max) : "");
const strs = (v: unknown, max = 50) =>
  Array.isArray(v)
    ? v
        .filter((x): x is string => typeof x === "string")
        .slice(0, max)
        .map((x) => x.slice(0, 400))
    : [];

export function teamValuesFromForm(v: Record<string, string | string[]>): TeamFormValues {
  const names = strs(v.staff_name, MAX_STAFF);
  const titles = strs(v.staff_title, MAX_STAFF);
  const emails = strs(v.staff_email, MAX_STAFF);
  const exts = strs(v.staff_extension, MAX_STAFF);
  return {
    full_name: str(v.full_name, 400),
    title: str(v.title, 400),
    email: str(v.email, 400),
    extension: str(v.extension, 40),
    mobile: str(v.mobile, 80),
    desc: str(v.desc, 40_000),
    AOP: strs(v.AOP),
    area_details: strs(v.area_details),
    staff: names.map((name, i) => ({ name, title: titles[i] ?? "", email: emails[i] ?? "", extension: exts[i] ?? "" })),
    new_staff: {
      name: str(v.new_staff_name, 400),
      title: str(v.new_staff_title, 400),
      email: str(v.new_staff_email, 400),
      extension: str(v.new_staff_extension, 40),
    },
    admissions: zipRows(strs(v.admission_jurisdiction, MAX_ADMISSIONS + 5), strs(v.admission_year, MAX_ADMISSIONS + 5)).map(([a, b]) => ({
      jurisdiction: a,
      year: b,
    })),
    languages: strs(v.languages),
    other_languages: str(v.other_languages, 400),
    education: zipRows(
      strs(v.education_degree, MAX_EDUCATION + 5),
      strs(v.education_school, MAX_EDUCATION + 5),
      strs(v.education_year, MAX_EDUCATION + 5),
    ).map(([degree, school, year]) => ({ degree, school, year })),
    matters: str(v.matters, MAX_MATTERS * 2),
    memberships: str(v.memberships, 8000),
    specialist_area: str(v.specialist_area, 400),
    specialist_year: str(v.specialist_year, 20),
    confirm_expert: v.confirm_expert === "on",
    visibility: v.visibility === "hidden" ? "hidden" : "visible",
    visible_from: str(v.visible_from, 40),
    hidden_from: str(v.hidden_from, 40),
  };
}

/** Parallel lists as rows (a missing cell is ""), without the rows left entirely blank. */
function zipRows(...lists: string[][]): string[][] {
  const n = Math.max(0, ...lists.map((l) => l.length));
  return Array.from({ length: n }, (_, i) => lists.map((l) => l[i] ?? "")).filter((row) => row.some((c) => c.trim()));
}

export function teamValuesFromMember(
  m: ProfileBasics & {
    AOP: string[];
    area_details: string[];
    staff: { name: string; title: string; email: string; extension: string | number }[];
    admissions?: Admission[];
    languages?: string[];
    other_languages?: string;
    education?: Education[];
    matters?: string;
    memberships?: string[];
    specialist_area?: string;
    specialist_year?: number | null;
    visible?: boolean;
    visible_from?: Date | string | null;
    hidden_from?: Date | string | null;
  },
): TeamFormValues {
  return {
    full_name: m.full_name,
    title: m.title,
    email: m.email,
    extension: m.extension == null ? "" : String(m.extension),
    mobile: m.mobile ?? "",
    desc: m.desc ?? "",
    AOP: [...(m.AOP ?? [])],
    area_details: [...(m.area_details ?? [])],
    staff: (m.staff ?? []).map((s) => ({
      name: s.name ?? "",
      title: s.title ?? "",
      email: s.email ?? "",
      extension: String(s.extension ?? ""),
    })),
    admissions: (m.admissions ?? []).map((a) => ({ jurisdiction: a.jurisdiction ?? "", year: a.year == null ? "" : String(a.year) })),
    languages: [...(m.languages ?? [])],
    other_languages: m.other_languages ?? "",
    education: (m.education ?? []).map((e) => ({
      degree: e.degree ?? "",
      school: e.school ?? "",
      year: e.year == null ? "" : String(e.year),
    })),
    matters: m.matters ?? "",
    memberships: (m.memberships ?? []).join("\n"),
    specialist_area: m.specialist_area ?? "",
    specialist_year: m.specialist_year == null ? "" : String(m.specialist_year),
    // Saved before with "expert" in it: confirmed then (the box stays ticked).
    confirm_expert: callsExpert(m.title) || callsExpert(m.desc ?? ""),
    visibility: m.visible === false ? "hidden" : "visible",
    visible_from: toFirmLocalInput(m.visible_from),
    hidden_from: toFirmLocalInput(m.hidden_from),
  };
}

/**
 * The status line of a refused save: the spec's "Missing required fields."
 * when a required field is empty; the "expert" warning when that is all
 * there is to confirm; otherwise "Please correct the highlighted fields."
 */
export function teamFormStatus(errors: Record<string, string>): Status {
  if (hasMissing(errors)) return { tone: "error", text: MSG.missingFields };
  const keys = Object.keys(errors);
  if (keys.length === 1 && keys[0] === "confirm_expert") return { tone: "error", text: EXPERT_WARNING };
  return { tone: "error", text: MSG.checkFields };
}

/** The team member form (create and edit) and its support-staff sub-form. */
import { z } from "zod";
import { EXPERTISE_CHOICES, PRACTICE_AREAS } from "../practice";
import { parseFirmLocal, toFirmLocalInput } from "../firm-time";
import { email, extension, text } from "./fields";
import { MSG } from "./messages";

export const TEAM_LISTS = ["AOP", "area_details", "staff_name", "staff_title", "staff_email", "staff_extension"] as const;
export const MAX_STAFF = 30;

export const AREA_LABELS: Record<(typeof PRACTICE_AREAS)[number], string> = {
  insurance: "Insurance",
  construction: "Construction",
  cyber: "Cyber",
};

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

const list = z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), z.array(z.string()).max(MAX_STAFF + 1));

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
    AOP: z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), uniqueList(PRACTICE_AREAS, "an area of practice")),
    area_details: z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), uniqueList(EXPERTISE_CHOICES, "a field of expertise")),
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
  })
  .transform((v, ctx) => {
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
      ...rest
    } = v;
    return {
      ...rest,
      staff,
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
    visibility: v.visibility === "hidden" ? "hidden" : "visible",
    visible_from: str(v.visible_from, 40),
    hidden_from: str(v.hidden_from, 40),
  };
}

export function teamValuesFromMember(m: {
  full_name: string;
  title: string;
  email: string;
  extension: number | null;
  mobile: string;
  desc: string;
  AOP: string[];
  area_details: string[];
  staff: { name: string; title: string; email: string; extension: string | number }[];
  visible?: boolean;
  visible_from?: Date | string | null;
  hidden_from?: Date | string | null;
}): TeamFormValues {
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
    visibility: m.visible === false ? "hidden" : "visible",
    visible_from: toFirmLocalInput(m.visible_from),
    hidden_from: toFirmLocalInput(m.hidden_from),
  };
}

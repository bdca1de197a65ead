import { describe, expect, it } from "vitest";
import { formValues } from "./form-data";
import { MSG } from "./messages";
import { EXPERT_WARNING } from "../profile";
import { checkStaffEntry, TEAM_LISTS, teamFormStatus, teamMemberSchema, teamValuesFromForm, teamValuesFromMember } from "./team";

const valid = {
  full_name: "  Jane Q. Doe ",
  title: "Partner",
  email: "jane@example.com",
  extension: "204",
  mobile: "",
  desc: "Bio",
  AOP: ["insurance", "cyber", "insurance"],
  area_details: ["Appeals"],
  staff_name: ["Sam"],
  staff_title: ["Clerk"],
  staff_email: ["sam@example.com"],
  staff_extension: ["12"],
};

describe("team member form schema", () => {
  it("accepts a full member, trims text, keeps the mobile, de-duplicates chips and builds the staff list", () => {
    const r = teamMemberSchema.parse({ ...valid, mobile: " 416 555 0100 " });
    expect(r).toMatchObject({ full_name: "Jane Q. Doe", extension: 204, mobile: "416 555 0100", AOP: ["insurance", "cyber"] });
    expect(r.staff).toEqual([{ name: "Sam", title: "Clerk", email: "sam@example.com", extension: "12" }]);
  });

  it("requires full name, title, email, extension and bio", () => {
    const r = teamMemberSchema.safeParse({});
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path[0]);
    expect(paths).toEqual(expect.arrayContaining(["full_name", "title", "email", "extension", "desc"]));
  });

  it("checks the email format and that the extension is a number", () => {
    const r = teamMemberSchema.safeParse({ ...valid, email: "not-an-email", extension: "12a" });
    expect(r.error!.issues.map((i) => i.path[0]).sort()).toEqual(["email", "extension"]);
  });

  it("refuses unknown areas and expertise, over-long text and mismatched staff lists", () => {
    expect(teamMemberSchema.safeParse({ ...valid, AOP: ["tax"] }).success).toBe(false);
    expect(teamMemberSchema.safeParse({ ...valid, area_details: ["Knitting"] }).success).toBe(false);
    expect(teamMemberSchema.safeParse({ ...valid, full_name: "x".repeat(201) }).success).toBe(false);
    expect(teamMemberSchema.safeParse({ ...valid, desc: "x".repeat(20_001) }).success).toBe(false);
    expect(teamMemberSchema.safeParse({ ...valid, staff_title: [] }).success).toBe(false);
    expect(teamMemberSchema.safeParse({ ...valid, mobile: "<script>" }).success).toBe(false);
  });

  it("never throws on hostile shapes", () => {
    for (const input of [null, 1, "x", [], { full_name: ["a", "b"] }, { AOP: { a: 1 } }, { staff_name: "x".repeat(10) }]) {
      expect(() => teamMemberSchema.safeParse(input)).not.toThrow();
    }
  });

  it("reads the same values from FormData as the browser sends", () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(valid)) for (const x of [v].flat()) fd.append(k, x);
    fd.append("photo", new Blob(["x"]), "a.jpg");
    const values = formValues(fd, TEAM_LISTS);
    expect(teamMemberSchema.safeParse(values).success).toBe(true);
    expect(teamValuesFromForm(values).staff).toHaveLength(1);
  });
});

describe("support staff entry", () => {
  it("needs all four fields, with the spec's message", () => {
    expect(checkStaffEntry({ name: "Sam", title: "Clerk", email: "", extension: "1" })).toEqual({
      ok: false,
      message: MSG.staffIncomplete,
    });
    expect(checkStaffEntry({ name: " ", title: "Clerk", email: "s@example.com", extension: "1" })).toEqual({
      ok: false,
      message: MSG.staffIncomplete,
    });
    expect(checkStaffEntry({ name: "Sam", title: "Clerk", email: "s@example.com", extension: "1" }).ok).toBe(true);
    expect(checkStaffEntry({ name: "Sam", title: "Clerk", email: "nope", extension: "1" }).ok).toBe(false);
    expect(checkStaffEntry({ name: "Sam", title: "Clerk", email: "s@example.com", extension: "x".repeat(21) }).ok).toBe(false);
  });
});

describe("credentials (issue 33)", () => {
  it("reads admissions, languages, education, memberships and the certification; blank rows are left out", () => {
    const r = teamMemberSchema.parse({
      ...valid,
      admission_jurisdiction: ["Ontario", "", " New York "],
      admission_year: ["2003", "", "2005"],
      languages: ["en", "fr", "en"],
      other_languages: "Tagalog, Swedish",
      education_degree: ["J.D.", ""],
      education_school: ["Osgoode Hall Law School", ""],
      education_year: ["", ""],
      memberships: " Ontario Bar Association \n\nCanadian Defence Lawyers\nOntario Bar Association",
      matters: "<ul><li>A matter</li></ul>",
      specialist_area: "Civil Litigation",
      specialist_year: "2012",
    });
    expect(r.admissions).toEqual([
      { jurisdiction: "Ontario", year: 2003 },
      { jurisdiction: "New York", year: 2005 },
    ]);
    expect(r.languages).toEqual(["en", "fr"]);
    expect(r.other_languages).toBe("Tagalog, Swedish");
    expect(r.education).toEqual([{ degree: "J.D.", school: "Osgoode Hall Law School", year: null }]);
    expect(r.memberships).toEqual(["Ontario Bar Association", "Canadian Defence Lawyers"]);
    expect(r).toMatchObject({ specialist_area: "Civil Litigation", specialist_year: 2012, matters: "<ul><li>A matter</li></ul>" });
    // Everything optional: none of it given is a valid member with empty credentials.
    expect(teamMemberSchema.parse(valid)).toMatchObject({
      admissions: [],
      languages: [],
      education: [],
      memberships: [],
      specialist_year: null,
    });
  });

  it("names the row and what is missing in an admission or a degree", () => {
    const errors = (over: Record<string, unknown>) =>
      (teamMemberSchema.safeParse({ ...valid, ...over }).error?.issues ?? []).map((i) => `${String(i.path[0])}: ${i.message}`);
    expect(errors({ admission_jurisdiction: ["Ontario"], admission_year: [""] })).toEqual([
      expect.stringMatching(/^admissions: Bar admission 1: enter the year of admission/),
    ]);
    expect(errors({ admission_jurisdiction: ["", ""], admission_year: ["", "1999"] })).toEqual([
      "admissions: Bar admission 2: the jurisdiction is required.",
    ]);
    expect(errors({ admission_jurisdiction: ["Ontario"], admission_year: ["3000"] })[0]).toMatch(/a year between 1940 and/);
    expect(errors({ education_degree: ["J.D."], education_school: [""], education_year: [""] })).toEqual([
      "education: Education 1: the degree and the school are both required.",
    ]);
    expect(errors({ languages: ["klingon"] })[0]).toMatch(/^languages: Choose languages from the list/);
    expect(errors({ specialist_area: "Civil Litigation" })).toEqual([
      "specialist_year: Year certified is required with the specialist area.",
    ]);
    expect(errors({ specialist_year: "2012" })).toEqual(["specialist_area: Specialist area is required with the year certified."]);
    expect(errors({ memberships: Array.from({ length: 21 }, (_, i) => `M${i}`).join("\n") })).toEqual([
      "memberships: At most 20 memberships (one a line).",
    ]);
  });

  it("keeps what was typed in the rows when the form is sent back", () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries({ ...valid, admission_jurisdiction: ["Ontario", ""], admission_year: ["20x3", ""] }))
      for (const x of [v].flat()) fd.append(k, x);
    const values = teamValuesFromForm(formValues(fd, TEAM_LISTS));
    expect(values.admissions).toEqual([{ jurisdiction: "Ontario", year: "20x3" }]);
  });
});

describe("the Law Society of Ontario's marketing rules", () => {
  const issues = (over: Record<string, unknown>) =>
    (teamMemberSchema.safeParse({ ...valid, ...over }).error?.issues ?? []).map((i) => ({ path: String(i.path[0]), message: i.message }));

  it("refuses “specialist” in the title or bio without a recorded certification, naming the Law Society's certification (Rule 4.3-1)", () => {
    for (const [field, text] of [
      ["title", "Insurance Specialist"],
      ["desc", "She is a specialist in coverage."],
      ["desc", "He specializes in construction liens."],
      ["desc", "Specialising in cyber claims."],
      ["title", "Partner, Specialists Group"],
    ]) {
      const found = issues({ [field]: text });
      expect(found.map((i) => i.path)).toEqual([field]);
      expect(found[0].message).toContain("Certified Specialist");
      expect(found[0].message).toContain("Law Society of Ontario");
      expect(found[0].message).toContain("Rule 4.3-1");
    }
    // With the certification recorded (area and year) the same words are accepted.
    expect(
      issues({ desc: "She is a certified specialist in civil litigation.", specialist_area: "Civil Litigation", specialist_year: "2012" }),
    ).toEqual([]);
    // Not the word: "special" alone, or a word merely containing it.
    expect(issues({ desc: "A special interest in appeals; especially coverage." })).toEqual([]);
  });

  it("warns on “expert” until the editor confirms it (Rule 4.2-1), and keeps the status line on the warning", () => {
    const found = issues({ desc: "An expert in cyber incident response." });
    expect(found).toEqual([{ path: "confirm_expert", message: EXPERT_WARNING }]);
    expect(teamFormStatus({ confirm_expert: EXPERT_WARNING })).toEqual({ tone: "error", text: EXPERT_WARNING });
    expect(issues({ desc: "An expert in cyber incident response.", confirm_expert: "on" })).toEqual([]);
    expect(issues({ title: "Expert Witness Counsel" })[0].path).toBe("confirm_expert");
    expect(issues({ desc: "Her expertise covers subrogation." })[0].path).toBe("confirm_expert");
    // A stored profile saved with the word was confirmed then: the box starts ticked.
    expect(teamValuesFromMember({ ...stored, desc: "An expert in appeals." }).confirm_expert).toBe(true);
    expect(teamValuesFromMember(stored).confirm_expert).toBe(false);
  });

  it("a specialist refusal and the expert warning come together, so one correction round covers both", () => {
    const found = issues({ title: "Specialist", desc: "An expert.", admission_jurisdiction: ["Ontario"], admission_year: [""] });
    expect(found.map((i) => i.path).sort()).toEqual(["admissions", "confirm_expert", "title"]);
  });
});

const stored = {
  full_name: "Jane Doe",
  title: "Partner",
  email: "jane@example.com",
  extension: 204,
  mobile: "",
  desc: "Bio",
  AOP: [],
  area_details: [],
  staff: [],
};

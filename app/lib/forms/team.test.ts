import { describe, expect, it } from "vitest";
import { formValues } from "./form-data";
import { MSG } from "./messages";
import { checkStaffEntry, TEAM_LISTS, teamMemberSchema, teamValuesFromForm } from "./team";

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

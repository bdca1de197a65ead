import { describe, expect, it } from "vitest";
import { enquirySchema, enquiryValuesFrom, isMostlyLinks, linkShare } from "./enquiry";

const valid = {
  name: "Dana",
  email: "dana@example.com",
  phone: "",
  practice_area: "cyber",
  message: "We had a breach last night.",
  consent: "yes",
};

describe("the enquiry form's schema", () => {
  it("accepts a valid enquiry, trimming text and allowing an empty phone", () => {
    expect(enquirySchema.parse({ ...valid, name: "  Dana  " })).toEqual({ ...valid, name: "Dana" });
    expect(enquirySchema.parse({ ...valid, phone: undefined }).phone).toBe("");
    for (const phone of ["416-555-0199", "+1 (416) 555 0199", "416 555 0199 ext. 12", "4165550199 x12"]) {
      expect(enquirySchema.safeParse({ ...valid, phone }).success, phone).toBe(true);
    }
  });
  it("refuses what a person must fix, field by field", () => {
    const result = enquirySchema.safeParse({
      name: "",
      email: "x",
      phone: "call me",
      practice_area: "tax",
      message: "short",
      consent: "no",
    });
    expect(result.success).toBe(false);
    const fields = new Set(result.error!.issues.map((i) => String(i.path[0])));
    expect([...fields].sort()).toEqual(["consent", "email", "message", "name", "phone", "practice_area"]);
    expect(enquirySchema.safeParse({ ...valid, message: "a\u0000b".repeat(10) }).success).toBe(false);
    expect(enquirySchema.safeParse({ ...valid, message: "x".repeat(5001) }).success).toBe(false);
  });
  it("keeps what was typed for the form shown again (capped, NUL removed, consent as a box)", () => {
    expect(enquiryValuesFrom({ name: "A\u0000B", consent: "yes", message: ["first", "second"] })).toEqual({
      name: "AB",
      email: "",
      phone: "",
      practice_area: "",
      message: "first",
      consent: true,
    });
    expect(enquiryValuesFrom({ name: "x".repeat(500) }).name).toHaveLength(200);
  });
});

describe("mostly links", () => {
  it("measures the share of the text inside links and bare web addresses", () => {
    expect(linkShare("")).toBe(0);
    expect(linkShare("no links here at all")).toBe(0);
    expect(linkShare("http://a.example/x")).toBe(1);
    expect(linkShare("see www.example.com")).toBeGreaterThan(0.5);
  });
  it("refuses spam made of links, not a message that mentions one", () => {
    expect(isMostlyLinks("http://cheap.example/a http://cheap.example/b buy")).toBe(true);
    expect(isMostlyLinks("casino.xyz/win pills.top/now best.shop")).toBe(true);
    expect(isMostlyLinks("Our claim is described at https://insurer.example/claims/123 and we need coverage advice on it.")).toBe(false);
    expect(isMostlyLinks("We are a construction company with a payment dispute on a project.")).toBe(false);
  });
});

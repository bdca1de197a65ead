import { describe, expect, it } from "vitest";
import { ARTICLE_FILTERS, membersOfArea, PRACTICE_PAGES } from "./practice";
import { sortTeam } from "./team-order";

const members = [
  { full_name: "Rajiv Menon", title: "Partner", AOP: ["cyber", "insurance"] },
  { full_name: "Sofia Marchetti", title: "Partner", AOP: ["Construction"] },
  { full_name: "Hiroshi Tanaka", title: "Associate", AOP: ["cyber"] },
  { full_name: "Patrick Lindqvist", title: "Office Manager", AOP: [] },
  { full_name: "Eleanor Whitcombe", title: "Managing Partner", AOP: ["insurance", "construction"] },
];

describe("practice filtering", () => {
  it("keeps members whose areas of practice contain the page's area (case-insensitively)", () => {
    expect(membersOfArea(members, "cyber").map((m) => m.full_name)).toEqual(["Rajiv Menon", "Hiroshi Tanaka"]);
    expect(membersOfArea(members, "construction").map((m) => m.full_name)).toEqual(["Sofia Marchetti", "Eleanor Whitcombe"]);
    expect(membersOfArea(members, "insurance").map((m) => m.full_name)).toEqual(["Rajiv Menon", "Eleanor Whitcombe"]);
  });
  it("leaves out members without areas, and keeps the spec's order when applied to a sorted list", () => {
    const cyber = membersOfArea(sortTeam(members), "insurance");
    expect(cyber.map((m) => m.full_name)).toEqual(["Eleanor Whitcombe", "Rajiv Menon"]);
    expect(membersOfArea([], "cyber")).toEqual([]);
  });
  it("names the three practice pages and the article filters of the spec", () => {
    expect(PRACTICE_PAGES.insurance.title).toBe("Insurance Defence");
    expect(PRACTICE_PAGES.construction.title).toBe("Construction Disputes");
    expect(PRACTICE_PAGES.cyber.title).toBe("Cyber Security & Incident Response");
    expect(PRACTICE_PAGES.cyber.subtitle).toBe("Safeguarding your interests with swift action and solid defence.");
    expect(ARTICLE_FILTERS).toEqual(["all", "insurance", "construction", "cyber", "news", "events"]);
  });
});

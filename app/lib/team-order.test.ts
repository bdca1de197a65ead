import { describe, expect, it } from "vitest";
import { compareTeamMembers, lastName, sortTeam, titleRank } from "./team-order";

const m = (full_name: string, title: string) => ({ full_name, title });

describe("team ordering (SPEC §9)", () => {
  it("ranks managing partner, client services partner, partner, associate, then everyone else", () => {
    expect(titleRank("Managing Partner")).toBe(1);
    expect(titleRank("client services partner")).toBe(2);
    expect(titleRank(" Partner ")).toBe(3);
    expect(titleRank("ASSOCIATE")).toBe(4);
    expect(titleRank("Law Clerk")).toBeGreaterThan(4);
    expect(titleRank("Senior Partner")).toBeGreaterThan(4);
  });

  it("sorts by rank, then by the last word of the full name, case-insensitively", () => {
    const sorted = sortTeam([
      m("Zed adams", "Office Manager"),
      m("Amelia Brandt", "Associate"),
      m("Rajiv Menon", "Partner"),
      m("hiroshi tanaka", "Associate"),
      m("Catherine doyle", "Partner"),
      m("Marcus Adeyemi", "Client Services Partner"),
      m("Eleanor Whitcombe", "Managing Partner"),
      m("Nadia Kowalski", "Senior Law Clerk"),
      m("Benjamin Okafor", "associate"),
    ]);
    expect(sorted.map((x) => x.full_name)).toEqual([
      "Eleanor Whitcombe",
      "Marcus Adeyemi",
      "Catherine doyle",
      "Rajiv Menon",
      "Amelia Brandt",
      "Benjamin Okafor",
      "hiroshi tanaka",
      "Zed adams",
      "Nadia Kowalski",
    ]);
  });

  it("uses the last word of the name, whatever the middle names", () => {
    expect(lastName("Jane Q. van Doe")).toBe("doe");
    expect(lastName("  Cher ")).toBe("cher");
    const sorted = sortTeam([m("Ann Zimmer", "Partner"), m("Zoe Mary Abbott", "Partner")]);
    expect(sorted[0].full_name).toBe("Zoe Mary Abbott");
  });

  it("does not change the input and is a total order", () => {
    const input = [m("B B", "Partner"), m("A A", "Partner")];
    const copy = [...input];
    sortTeam(input);
    expect(input).toEqual(copy);
    expect(compareTeamMembers(input[0], input[0])).toBe(0);
    expect(Math.sign(compareTeamMembers(input[0], input[1]))).toBe(-Math.sign(compareTeamMembers(input[1], input[0])));
  });
});

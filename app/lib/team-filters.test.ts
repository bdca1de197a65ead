import { describe, expect, it } from "vitest";
import { roleOfTitle } from "./profile";
import { describeTeamFilters, filterTeam, isFiltered, languagesSpoken, parseTeamFilters, teamFilterHref } from "./team-filters";

const people = [
  { full_name: "Eleanor Whitcombe", title: "Managing Partner", AOP: ["insurance", "construction"], languages: ["en", "fr"] },
  { full_name: "Zoë Adeyemi", title: "Client Services Partner", AOP: ["insurance"], languages: ["en"] },
  { full_name: "Rajiv Menon", title: "Partner", AOP: ["Cyber"], languages: ["en", "hi"] },
  { full_name: "Ruth Bader", title: "Of Counsel", AOP: ["cyber"], languages: ["en", "fr"] },
  { full_name: "Benjamin Okafor", title: "Associate", AOP: ["construction", "cyber"], languages: ["en"] },
  { full_name: "Nadia Kowalski", title: "Senior Law Clerk", AOP: ["insurance"], languages: ["en", "pl"] },
];
const names = (f: string) => filterTeam(people, parseTeamFilters(new URLSearchParams(f))).map((p) => p.full_name);

describe("team directory filters", () => {
  it("reads the filters from the address; unknown values are no filter", () => {
    expect(parseTeamFilters(new URLSearchParams("practice=Cyber&language=fr&role=partners&q=  ra  "))).toEqual({
      practice: "cyber",
      language: "fr",
      role: "partners",
      q: "ra",
    });
    const none = parseTeamFilters(new URLSearchParams("practice=tax&language=xx&role=kings&q="));
    expect(isFiltered(none)).toBe(false);
    expect(parseTeamFilters(new URLSearchParams(`q=${"a".repeat(500)}`)).q).toHaveLength(100);
  });

  it("combines practice area, language, role and name (case and accents ignored), keeping the order given", () => {
    expect(names("practice=cyber")).toEqual(["Rajiv Menon", "Ruth Bader", "Benjamin Okafor"]);
    expect(names("language=fr")).toEqual(["Eleanor Whitcombe", "Ruth Bader"]);
    expect(names("practice=cyber&language=fr")).toEqual(["Ruth Bader"]);
    expect(names("role=partners")).toEqual(["Eleanor Whitcombe", "Zoë Adeyemi", "Rajiv Menon"]);
    expect(names("role=counsel")).toEqual(["Ruth Bader"]);
    expect(names("role=associates")).toEqual(["Benjamin Okafor"]);
    expect(names("role=staff")).toEqual(["Nadia Kowalski"]);
    expect(names("q=zoe")).toEqual(["Zoë Adeyemi"]);
    expect(names("q=MEN")).toEqual(["Rajiv Menon"]);
    expect(names("practice=construction&role=staff")).toEqual([]);
    expect(names("")).toHaveLength(people.length);
  });

  it("groups titles into roles", () => {
    expect(["Managing Partner", "Client Services Partner", "Partner", "Equity Partner"].map(roleOfTitle)).toEqual(
      Array(4).fill("partners"),
    );
    expect(["Counsel", "Of Counsel", "Senior Counsel"].map(roleOfTitle)).toEqual(Array(3).fill("counsel"));
    expect(["Associate", "Senior Associate"].map(roleOfTitle)).toEqual(["associates", "associates"]);
    expect(["Law Clerk", "Office Manager", "Legal Assistant"].map(roleOfTitle)).toEqual(["staff", "staff", "staff"]);
  });

  it("builds the addresses of filtered views and says what a view shows", () => {
    const f = parseTeamFilters(new URLSearchParams("practice=cyber&language=fr&q=ra"));
    expect(teamFilterHref("/team", f)).toBe("/team?practice=cyber&language=fr&q=ra");
    expect(teamFilterHref("/cyber?tab=team", { ...f, practice: null })).toBe("/cyber?tab=team&language=fr&q=ra");
    expect(describeTeamFilters(f, (a) => a.toUpperCase())).toBe("CYBER, French, “ra”");
    expect(languagesSpoken(people).map((l) => l.label)).toEqual(["English", "French", "Hindi", "Polish"]);
  });
});

import { describe, expect, it } from "vitest";
import { articleSlug, lawyerSlug, uniqueSlug } from "./slug";

describe("lawyerSlug (full name, spaces to hyphens)", () => {
  it("turns spaces into hyphens and keeps the case and punctuation of the name", () => {
    expect(lawyerSlug("Eleanor Whitcombe")).toBe("Eleanor-Whitcombe");
    expect(lawyerSlug("Jane Q. Doe")).toBe("Jane-Q.-Doe");
    expect(lawyerSlug("Anne-Marie O'Neil")).toBe("Anne-Marie-O'Neil");
  });
  it("collapses runs of whitespace and trims", () => {
    expect(lawyerSlug("  Marcus   Adeyemi \t")).toBe("Marcus-Adeyemi");
  });
  it("drops characters that would break a URL path", () => {
    expect(lawyerSlug("A/B ?C#D%")).toBe("AB-CD");
  });
  it("never returns an empty slug", () => {
    expect(lawyerSlug("   ")).toBe("member");
  });
  it("keeps letters outside ASCII", () => {
    expect(lawyerSlug("Zoë Müller")).toBe("Zoë-Müller");
  });
});

describe("articleSlug (punctuation removed, whitespace to hyphens)", () => {
  it("removes punctuation and joins words with hyphens", () => {
    expect(articleSlug("Cyber: what now?")).toBe("Cyber-what-now");
    expect(articleSlug("Ransomware Payments: Five Questions to Ask Before You Pay")).toBe(
      "Ransomware-Payments-Five-Questions-to-Ask-Before-You-Pay",
    );
    expect(articleSlug("Court of Appeal Clarifies Occupiers' Duty in Winter Slip Claims")).toBe(
      "Court-of-Appeal-Clarifies-Occupiers-Duty-in-Winter-Slip-Claims",
    );
  });
  it("keeps hyphens already in the title and digits", () => {
    expect(articleSlug("Business E-mail Compromise: The First 48 Hours")).toBe("Business-E-mail-Compromise-The-First-48-Hours");
  });
  it("collapses whitespace, including whitespace left behind by removed punctuation", () => {
    expect(articleSlug("  Lien Rights  &  Holdback ")).toBe("Lien-Rights-Holdback");
  });
  it("never returns an empty slug", () => {
    expect(articleSlug("?!…")).toBe("article");
  });
});

describe("uniqueSlug", () => {
  it("adds -2, -3… only when the name is taken", () => {
    expect(uniqueSlug("Jane-Doe", new Set())).toBe("Jane-Doe");
    expect(uniqueSlug("Jane-Doe", new Set(["Jane-Doe"]))).toBe("Jane-Doe-2");
    expect(uniqueSlug("Jane-Doe", new Set(["Jane-Doe", "Jane-Doe-2"]))).toBe("Jane-Doe-3");
  });
});

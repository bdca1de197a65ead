import { describe, expect, it } from "vitest";
import { checkImportRow, impliedConsentEnd, importHeader } from "./subscriber-import";

const NOW = new Date("2026-12-05T12:00:00Z");
const header = (() => {
  const found = importHeader(["E-mail", "Consent", "Consent_Date", "Source", "Implied basis"]);
  if ("missing" in found) throw new Error(found.missing);
  return found.header;
})();

describe("the import's header", () => {
  it("knows the columns however they are spelled, and names the missing ones", () => {
    expect(header).toEqual({ email: 0, consent: 1, date: 2, source: 3, basis: 4 });
    expect(importHeader(["email", "name"])).toEqual({
      missing: "The file's first row must name the columns. Missing: “consent”, “consent date”, “source”.",
    });
  });
});

describe("a row's evidence of consent", () => {
  it("ends implied consent two years after a business relationship, six months after an enquiry", () => {
    expect(impliedConsentEnd(new Date("2026-03-02T00:00:00Z"), "business relationship")).toEqual(new Date("2028-03-02T00:00:00Z"));
    expect(impliedConsentEnd(new Date("2026-08-15T00:00:00Z"), "enquiry")).toEqual(new Date("2027-02-15T00:00:00Z"));
    expect(checkImportRow(["A@Client.example", "implied", "2026-08-15", "Enquiry form", "enquiry"], header, NOW)).toMatchObject({
      email: "a@client.example",
      kind: "implied",
      basis: "enquiry",
      expiresAt: new Date("2027-02-15T00:00:00Z"),
    });
    expect(checkImportRow(["a@client.example", "express", "2020-01-01", "Card", ""], header, NOW)).toMatchObject({ expiresAt: null });
  });

  it("refuses a row without evidence, in words", () => {
    const reason = (cells: string[]) => (checkImportRow(cells, header, NOW) as { reason?: string }).reason;
    expect(reason(["", "express", "2026-01-01", "x"])).toBe("No e-mail address.");
    expect(reason(["a@b", "express", "2026-01-01", "x"])).toBe("Not a valid e-mail address.");
    expect(reason(["a@client.example", "", "2026-01-01", "x"])).toBe("No kind of consent: write express or implied.");
    expect(reason(["a@client.example", "opt-in", "2026-01-01", "x"])).toBe("The kind of consent must be express or implied, not “opt-in”.");
    expect(reason(["a@client.example", "express", "", "x"])).toBe("No consent date.");
    expect(reason(["a@client.example", "express", "05/12/2026", "x"])).toBe(
      "The consent date “05/12/2026” is not a date written YYYY-MM-DD.",
    );
    expect(reason(["a@client.example", "express", "2026-02-30", "x"])).toBe(
      "The consent date “2026-02-30” is not a date written YYYY-MM-DD.",
    );
    expect(reason(["a@client.example", "express", "2027-01-01", "x"])).toBe("The consent date 2027-01-01 is in the future.");
    expect(reason(["a@client.example", "express", "2026-01-01", " "])).toBe("No source or wording of the consent.");
    expect(reason(["a@client.example", "implied", "2026-01-01", "x", ""])).toBe(
      "Implied consent needs its basis: business relationship or enquiry.",
    );
    expect(reason(["a@client.example", "implied", "2026-01-01", "x", "friend"])).toBe(
      "The implied basis must be business relationship or enquiry, not “friend”.",
    );
    expect(reason(["a@client.example", "implied", "2026-01-01", "x", "enquiry"])).toBe("Implied consent (enquiry) ended on 2026-07-01.");
  });
});

import { describe, expect, it } from "vitest";
import {
  buildVCard,
  displayPhone,
  escapeText,
  foldLine,
  mobilePhone,
  mobileUri,
  nameParts,
  telUri,
  vcardContentDisposition,
  vcardFileName,
  workPhone,
} from "./vcard";
import { ELEANOR_WHITCOMBE_LINES, expectCardLines, expectVCard3Framing } from "../../tests/support/vcard";

const org = {
  name: "Harrow Kline LLP",
  phoneE164: "+14165550142",
  address: { street: "100 Wellington Street West, Suite 2100", city: "Toronto", region: "ON", postalCode: "M5K 1A1", country: "CA" },
};

describe("vCard escaping and parts", () => {
  it("escapes backslash, comma, semicolon and newlines in text values", () => {
    expect(escapeText("a,b;c\\d")).toBe("a\\,b\\;c\\\\d");
    expect(escapeText("line1\nline2\r\nline3")).toBe("line1\\nline2\\nline3");
  });
  it("splits the name into family, given and additional names", () => {
    expect(nameParts("Eleanor Whitcombe")).toEqual({ family: "Whitcombe", given: "Eleanor", additional: "" });
    expect(nameParts("Jane Q. Doe")).toEqual({ family: "Doe", given: "Jane", additional: "Q." });
    expect(nameParts("Cher")).toEqual({ family: "Cher", given: "", additional: "" });
  });
  it("writes phone numbers the way address books show them", () => {
    expect(workPhone("+14165550142", 101)).toBe("+1 416-555-0142 ext. 101");
    expect(workPhone("+14165550142", null)).toBe("+1 416-555-0142");
    expect(displayPhone("+1 (416) 555-0142")).toBe("+1 416-555-0142");
    expect(mobilePhone("416-555-0190")).toBe("+1 416-555-0190");
    expect(mobilePhone("1 (416) 555 0190")).toBe("+1 416-555-0190");
    expect(mobilePhone("+44 20 7946 0000")).toBe("+44 20 7946 0000");
    expect(mobilePhone("")).toBe("");
    expect(mobilePhone("n/a")).toBe("");
    expect(mobilePhone("555")).toBe("");
  });
  it("writes the main number with the extension as a tel: URI (the lawyer page's links)", () => {
    expect(telUri("+14165550142", 101)).toBe("tel:+14165550142;ext=101");
    expect(telUri("+1 416-555-0142", null)).toBe("tel:+14165550142");
    expect(mobileUri("416-555-0190")).toBe("tel:+14165550190");
    expect(mobileUri("1 (416) 555 0190")).toBe("tel:+14165550190");
    expect(mobileUri("")).toBe("");
    expect(mobileUri("n/a")).toBe("");
  });
  it("folds long lines at 75 octets without splitting a UTF-8 character", () => {
    const line = "NOTE:" + "é".repeat(100);
    const folded = foldLine(line);
    for (const part of folded.split("\r\n")) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    expect(
      folded
        .split("\r\n")
        .map((p, i) => (i ? p.slice(1) : p))
        .join(""),
    ).toBe(line);
    expect(foldLine("FN:Short")).toBe("FN:Short");
  });
});

describe("buildVCard (vCard 3.0, RFC 2426)", () => {
  const photo = { type: "JPEG" as const, base64: Buffer.from("x".repeat(3000)).toString("base64") };
  const card = buildVCard(
    {
      full_name: "Eleanor Whitcombe",
      title: "Managing Partner",
      email: "ewhitcombe@harrowkline.example",
      extension: 101,
      mobile: "416-555-0190",
    },
    org,
    { photo, profileUrl: "http://localhost:3000/lawyer/Eleanor-Whitcombe" },
  );

  it("is a vCard 3.0 with CRLF line ends, every line at most 75 octets", () => {
    expectVCard3Framing(card);
  });
  it("has name, title, organisation, e-mail, work phone with extension, mobile, address, URL and the photo embedded", () => {
    expectCardLines(card, [
      ...ELEANOR_WHITCOMBE_LINES,
      "TEL;TYPE=CELL:+1 416-555-0190",
      "ADR;TYPE=WORK:;;100 Wellington Street West\\, Suite 2100;Toronto;ON;M5K 1A1;CA",
      "URL:http://localhost:3000/lawyer/Eleanor-Whitcombe",
      `PHOTO;ENCODING=b;TYPE=JPEG:${photo.base64}`,
    ]);
    expect(card).not.toMatch(/VALUE=uri|tel:/);
  });
  it("escapes commas, semicolons and newlines in the person's fields; no mobile or photo when there is none", () => {
    const tricky = buildVCard(
      { full_name: "Anne, Jr; Smith", title: "Partner; Cyber\nLead", email: "a@b.example", extension: null, mobile: "" },
      { ...org, name: "Smith, Jones; Co \\ LLP" },
    );
    const lines = tricky.split("\r\n");
    expect(lines).toContain("FN:Anne\\, Jr\\; Smith");
    expect(lines).toContain("N:Smith;Anne\\,;Jr\\;;;");
    expect(lines).toContain("TITLE:Partner\\; Cyber\\nLead");
    expect(lines).toContain("ORG:Smith\\, Jones\\; Co \\\\ LLP");
    expect(lines).toContain("TEL;TYPE=WORK,VOICE:+1 416-555-0142");
    expect(tricky).not.toContain("CELL");
    expect(tricky).not.toContain("PHOTO");
  });
});

describe("file names", () => {
  it("makes an ASCII-safe .vcf name from the person's name", () => {
    expect(vcardFileName("Eleanor Whitcombe")).toBe("Eleanor-Whitcombe.vcf");
    expect(vcardFileName("Zoë O'Brien-Müller")).toBe("Zoe-O-Brien-Muller.vcf");
    expect(vcardFileName("李 小龍")).toBe("contact.vcf");
  });
  it("sends an attachment with both filename and filename*", () => {
    expect(vcardContentDisposition("Eleanor Whitcombe")).toBe(
      `attachment; filename="Eleanor-Whitcombe.vcf"; filename*=UTF-8''Eleanor-Whitcombe.vcf`,
    );
    expect(vcardContentDisposition("Zoë Müller")).toBe(`attachment; filename="Zoe-Muller.vcf"; filename*=UTF-8''Zo%C3%AB-M%C3%BCller.vcf`);
  });
});

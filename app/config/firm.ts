/**
 * The firm's identity: one place that every page, the contact card and the
 * structured data read. Demo values (fictional firm).
 */
export const FIRM = {
  name: "Harrow Kline LLP",
  shortName: "Harrow Kline",
  tagline: "Insurance defence, construction disputes and cyber incident response counsel in Toronto.",
  address: {
    street: "100 Wellington Street West, Suite 2100",
    city: "Toronto",
    region: "ON",
    postalCode: "M5K 1A1",
    country: "CA",
  },
  /** What the embedded map is addressed by. */
  mapQuery: "100 Wellington Street West, Toronto, ON M5K 1A1",
  /** Recorded as a Law Society of Ontario accredited CPD provider: Professionalism hours may be advertised without a program's accreditation (issue 45). */
  lsoAccreditedProvider: false as boolean,
  phone: "416-555-0142",
  phoneE164: "+14165550142",
  fax: "416-555-0143",
  email: "info@harrowkline.example",
  /** Who answers questions and requests about personal information (the privacy notice). */
  privacyOfficer: { name: "Morgan Ellery", role: "Director of Operations (Privacy Officer)", email: "privacy@harrowkline.example" },
  /** The two people named in the accessibility plan. */
  accessibilityContacts: [
    { name: "Morgan Ellery", role: "Director of Operations", email: "accessibility@harrowkline.example", phone: "416-555-0142 ext. 201" },
    { name: "Priya Castellano", role: "Office Manager", email: "office@harrowkline.example", phone: "416-555-0142 ext. 205" },
  ],
} as const;

export function fullAddress(): string {
  const a = FIRM.address;
  return `${a.street}, ${a.city}, ${a.region} ${a.postalCode}`;
}

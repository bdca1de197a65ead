/**
 * vCard 3.0 (RFC 2426) for a lawyer's contact card: what Outlook for Windows,
 * Apple Contacts, Google Contacts and Android all import. UTF-8, CRLF line
 * ends, text values escaped (backslash, comma, semicolon, newline), lines
 * folded at 75 octets without splitting a UTF-8 character, phone numbers
 * written the way address books show them ("+1 416-555-0142 ext. 101"), and
 * the portrait embedded (PHOTO;ENCODING=b;TYPE=JPEG): clients ignore a URL.
 */

export type VCardPerson = {
  full_name: string;
  title: string;
  email: string;
  extension: number | null;
  mobile?: string | null;
};

export type VCardOrg = {
  /** Organisation (the firm's name). */
  name: string;
  /** Main number in E.164 form, e.g. +14165550142. */
  phoneE164: string;
  address?: { street: string; city: string; region: string; postalCode: string; country: string };
};

/** Escapes a TEXT value (RFC 2426 §4; the same in RFC 6350 §3.4). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/,/g, "\\,")
    .replace(/;/g, "\\;")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** Splits a full name into family, given and additional names (N property). */
export function nameParts(fullName: string): { family: string; given: string; additional: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { family: words[0] ?? "", given: "", additional: "" };
  return { family: words[words.length - 1], given: words[0], additional: words.slice(1, -1).join(" ") };
}

/** A `tel:` URI of the main number with an optional extension: tel:+14165550142;ext=101 */
export function telUri(e164: string, extension?: number | string | null): string {
  const number = e164.replace(/[^+\d]/g, "");
  const ext = extension === null || extension === undefined ? "" : String(extension).replace(/\D/g, "");
  return ext ? `tel:${number};ext=${ext}` : `tel:${number}`;
}

/** A North American number typed freely ("416-555-0190") as a tel: URI, or "" when unusable. */
export function mobileUri(mobile: string | null | undefined): string {
  const digits = (mobile ?? "").replace(/\D/g, "");
  if (digits.length === 10) return `tel:+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `tel:+${digits}`;
  if ((mobile ?? "").trim().startsWith("+") && digits.length >= 8) return `tel:+${digits}`;
  return "";
}

/** Folds one content line at 75 octets (RFC 2426 §2.6, RFC 2425 §5.8.1), never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = "";
  let currentBytes = 0;
  let limit = 75;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    if (currentBytes + size > limit) {
      parts.push(current);
      current = "";
      currentBytes = 0;
      limit = 74; // continuation lines start with one space
    }
    current += ch;
    currentBytes += size;
  }
  if (current) parts.push(current);
  return parts.join("\r\n ");
}

/** A North American E.164 number as address books show it: "+1 416-555-0142". Others as given. */
export function displayPhone(e164: string): string {
  const digits = e164.replace(/[^\d+]/g, "");
  const na = /^\+?1?(\d{3})(\d{3})(\d{4})$/.exec(digits);
  return na ? `+1 ${na[1]}-${na[2]}-${na[3]}` : e164.trim();
}

/** The main number with a lawyer's extension: "+1 416-555-0142 ext. 101". */
export function workPhone(e164: string, extension?: number | string | null): string {
  const ext = extension === null || extension === undefined ? "" : String(extension).replace(/\D/g, "");
  return ext ? `${displayPhone(e164)} ext. ${ext}` : displayPhone(e164);
}

/** A mobile typed freely ("416-555-0190", "1 (416) 555 0190", "+44 20 7946 0000") for a card, or "" when unusable. */
export function mobilePhone(mobile: string | null | undefined): string {
  const typed = (mobile ?? "").trim();
  const digits = typed.replace(/\D/g, "");
  if (digits.length === 10 || (digits.length === 11 && digits.startsWith("1"))) return displayPhone(digits.slice(-10));
  if (typed.startsWith("+") && digits.length >= 8 && /^[+\d\s().-]+$/.test(typed)) return typed.replace(/\s+/g, " ");
  return "";
}

/** An embedded picture: its type and its bytes in base64 (made on the server). */
export type VCardPhoto = { type: "JPEG"; base64: string };

export function buildVCard(person: VCardPerson, org: VCardOrg, options: { photo?: VCardPhoto; profileUrl?: string } = {}): string {
  const n = nameParts(person.full_name);
  const lines = [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `N:${[n.family, n.given, n.additional, "", ""].map(escapeText).join(";")}`,
    `FN:${escapeText(person.full_name.trim())}`,
    `ORG:${escapeText(org.name)}`,
  ];
  if (person.title.trim()) lines.push(`TITLE:${escapeText(person.title.trim())}`);
  if (person.email.trim()) lines.push(`EMAIL;TYPE=INTERNET,WORK:${escapeText(person.email.trim())}`);
  lines.push(`TEL;TYPE=WORK,VOICE:${escapeText(workPhone(org.phoneE164, person.extension))}`);
  const mobile = mobilePhone(person.mobile);
  if (mobile) lines.push(`TEL;TYPE=CELL:${escapeText(mobile)}`);
  if (org.address) {
    const a = org.address;
    lines.push(`ADR;TYPE=WORK:${["", "", a.street, a.city, a.region, a.postalCode, a.country].map(escapeText).join(";")}`);
  }
  if (options.profileUrl) lines.push(`URL:${options.profileUrl}`);
  if (options.photo) lines.push(`PHOTO;ENCODING=b;TYPE=${options.photo.type}:${options.photo.base64}`);
  lines.push("END:VCARD");
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

/** An ASCII-safe file name from a person's name: "Eleanor-Whitcombe.vcf". */
export function vcardFileName(fullName: string): string {
  const ascii = fullName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${ascii || "contact"}.vcf`;
}

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name in filename*. */
export function vcardContentDisposition(fullName: string): string {
  const ascii = vcardFileName(fullName);
  const utf8Name =
    fullName
      .trim()
      .replace(/[\s/\\?%*:|"<>]+/g, "-")
      .replace(/^-+|-+$/g, "") || "contact";
  const encoded = encodeURIComponent(`${utf8Name}.vcf`).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

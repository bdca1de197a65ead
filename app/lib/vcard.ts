/**
 * vCard 4.0 (RFC 6350) for a lawyer's contact card: UTF-8, CRLF line ends,
 * text values escaped (backslash, comma, semicolon, newline), lines folded
 * at 75 octets without splitting a UTF-8 character.
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

/** Escapes a TEXT value (RFC 6350 §3.4). */
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
  return { family: words[words.length - 1]!, given: words[0]!, additional: words.slice(1, -1).join(" ") };
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

/** Folds one content line at 75 octets (RFC 6350 §3.2), never inside a UTF-8 sequence. */
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

export function buildVCard(person: VCardPerson, org: VCardOrg, options: { photoUrl?: string; profileUrl?: string } = {}): string {
  const n = nameParts(person.full_name);
  const lines = [
    "BEGIN:VCARD",
    "VERSION:4.0",
    `FN:${escapeText(person.full_name.trim())}`,
    `N:${[n.family, n.given, n.additional, "", ""].map(escapeText).join(";")}`,
  ];
  if (person.title.trim()) lines.push(`TITLE:${escapeText(person.title.trim())}`);
  lines.push(`ORG:${escapeText(org.name)}`);
  if (person.email.trim()) lines.push(`EMAIL;TYPE=work:${escapeText(person.email.trim())}`);
  lines.push(`TEL;VALUE=uri;TYPE="work,voice":${telUri(org.phoneE164, person.extension)}`);
  const mobile = mobileUri(person.mobile);
  if (mobile) lines.push(`TEL;VALUE=uri;TYPE="cell,voice":${mobile}`);
  if (org.address) {
    const a = org.address;
    lines.push(`ADR;TYPE=work:${["", "", a.street, a.city, a.region, a.postalCode, a.country].map(escapeText).join(";")}`);
  }
  if (options.photoUrl) lines.push(`PHOTO:${options.photoUrl}`);
  if (options.profileUrl) lines.push(`URL:${options.profileUrl}`);
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

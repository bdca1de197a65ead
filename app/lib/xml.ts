/** Escapes text for XML element content and attribute values. */
export function xmlEscape(text: string): string {
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these control characters: they are dropped.
  return text.replace(/[<>&'"\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, (c) =>
    c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "&" ? "&amp;" : c === "'" ? "&apos;" : c === '"' ? "&quot;" : "",
  );
}

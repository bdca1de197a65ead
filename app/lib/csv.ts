/** One CSV cell (RFC 4180), never read as a formula by a spreadsheet program ("=…" is written as text). */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV file's body: UTF-8 with a byte-order mark (spreadsheets read accents), CRLF lines. */
export function csvBody(lines: readonly (readonly (string | number | null)[])[]): string {
  return `\uFEFF${lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

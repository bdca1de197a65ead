/**
 * The one way the site writes CSV (every export uses `csvBody`). A cell of a
 * staff export can hold what a visitor typed (a search term, a referrer, an
 * e-mail address), so no spreadsheet may read it as a formula, whatever its
 * locale's separator (OWASP "CSV Injection"):
 *
 * - every cell is quoted, and a `"` inside it doubled (RFC 4180);
 * - a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage
 *   return gets a `'` in front (a spreadsheet shows it as text);
 * - so does each such character that follows a `;` or a `,` inside the cell
 *   (spaces or quotes between them included): a program that splits the line
 *   on its own locale's separator (`;` in fr-CA) and does not honour the
 *   quotes would start a new cell there.
 */

export type CsvValue = string | number | null;

/** Where a cell could start (the text's start, or after a separator), with the spaces and quotes after it, before a formula's first character. */
const FORMULA_START = /(^|[;,])([ "]*)(?=[=+\-@\t\r])/g;

/** One cell, quoted and neutralised. Numbers are written as they are (a count is never a formula). */
export function csvCell(value: CsvValue): string {
  if (value === null) return '""';
  let text = String(value);
  if (typeof value === "string") text = text.replace(FORMULA_START, "$1$2'");
  return `"${text.replace(/"/g, '""')}"`;
}

/** A CSV file's body: UTF-8 with a byte-order mark (spreadsheets then read accents), CRLF lines, every cell from `csvCell`. */
export function csvBody(lines: readonly (readonly CsvValue[])[]): string {
  return `\uFEFF${lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

/** The headers of a CSV download named `filename` (never kept by a cache: staff data). */
export function csvHeaders(filename: string): HeadersInit {
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Cache-Control": "private, no-store",
  };
}

/** The rows of a CSV text (RFC 4180: quoted cells with "" inside, CRLF or LF; a byte-order mark ignored). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const input = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quoted) {
      if (ch === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && input[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length) rows.push([...row, cell]);
  return rows.filter((r) => r.some((c) => c.trim() !== ""));
}

import { describe, expect, it } from "vitest";
import { csvBody, csvCell } from "./csv";

/** An RFC 4180 reader (quotes honoured), as a spreadsheet set to `,` reads the file. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      rows.push([...row, cell]);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

/** The cells a program would see that splits each line on `separator` and ignores quotes (the worst case of another locale). */
const naiveCells = (text: string, separator: string) =>
  text
    .split("\r\n")
    .flatMap((line) => line.split(separator))
    .map((cell) => cell.replace(/^"+/, ""));

const FORMULA = /^[=+\-@\t\r]/;

describe("csvCell and csvBody", () => {
  it("quotes every cell and doubles quotes inside", () => {
    expect(csvCell("plain")).toBe('"plain"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(42)).toBe('"42"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell("a,b\r\nc")).toBe('"a,b\r\nc"');
  });

  it("writes a cell that begins like a formula as text", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvCell(`=cmd|' /C calc'!A0`)).toBe(`"'=cmd|' /C calc'!A0"`);
  });

  it("neutralises a formula after a ; or , inside a cell (a ; locale such as fr-CA)", () => {
    expect(csvCell("/x;=1+1")).toBe(`"/x;'=1+1"`);
    expect(csvCell("a,@SUM(A1)")).toBe(`"a,'@SUM(A1)"`);
    // Spaces or quotes between the separator and the formula do not hide it.
    expect(csvCell("a; =1")).toBe(`"a; '=1"`);
    expect(csvCell(`a;"@A1`)).toBe(`"a;""'@A1"`);
    expect(csvCell("a-b, c+d")).toBe(`"a-b, c+d"`);
  });

  it("leaves no cell starting with a formula character, whether read with quotes or split on ; or , without them", () => {
    const lines = [
      ["section", "key", "count"],
      ["page", "/x;=1+1", 3],
      ["search", "term,+cmd", 1],
      ["referrer", `"; =2+5;"@A1`, 1],
      ["search", "-2+3", 1],
      ["page", "/a;\t=1", 2],
    ];
    const text = csvBody(lines).slice(1);
    // Read as RFC 4180: the same cells back, each formula written as text.
    const read = readCsv(text);
    expect(read.map((r) => r.length)).toEqual(lines.map((l) => l.length));
    expect(read[1]).toEqual(["page", "/x;'=1+1", "3"]);
    for (const cell of read.flat()) expect(cell).not.toMatch(FORMULA);
    // Split on ; (Excel in fr-CA) or , ignoring quotes: still no cell starts with one.
    for (const separator of [";", ","]) for (const cell of naiveCells(text, separator)) expect(cell).not.toMatch(FORMULA);
  });

  it("starts with a byte-order mark and ends each line with CRLF", () => {
    expect(csvBody([["a", 1]])).toBe('\uFEFF"a","1"\r\n');
  });
});

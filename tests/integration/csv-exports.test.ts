/**
 * Every CSV the site writes goes through the one helper (app/lib/csv.ts:
 * every cell quoted, formulas neutralised in any locale). A module under app/
 * that answers `text/csv` without `csvBody` fails here, so a new export
 * (enquiries, activity…) cannot forget it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.resolve(import.meta.dirname, "../../app");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe("CSV exports", () => {
  it("every module that writes CSV writes it with csvBody and csvHeaders", () => {
    const writers = sources(APP).filter(
      (file) => file !== path.join(APP, "lib/csv.ts") && /text\/csv|\.csv[`"]/.test(fs.readFileSync(file, "utf8")),
    );
    const exports = writers.filter((file) => /new Response\(/.test(fs.readFileSync(file, "utf8")));
    expect(exports.map((f) => path.relative(APP, f)).sort()).toEqual([
      "routes/admin/activity-export.ts",
      "routes/admin/enquiries-export.ts",
      "routes/admin/event-registrations-export.ts",
      "routes/admin/redirects-export.ts",
      "routes/admin/statistics-export.ts",
      "routes/admin/subscribers-export.ts",
      "routes/admin/subscribers-import-refused.ts",
    ]);
    for (const file of exports) {
      const text = fs.readFileSync(file, "utf8");
      expect(text, file).toMatch(/new Response\(csvBody\(/);
      expect(text, file).toMatch(/csvHeaders\(/);
      expect(text, file).not.toMatch(/text\/csv/);
    }
  });
});

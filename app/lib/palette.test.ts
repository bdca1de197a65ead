/**
 * The brand palette's contrast, computed from the colour tokens of
 * app/site.css (`@theme`) with the WCAG 2.1 formula: every documented text
 * and control pair meets AA, and the ratios written beside the tokens are
 * the real ones (a changed token without a changed note fails here).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const css = fs.readFileSync(path.resolve(import.meta.dirname, "../site.css"), "utf8");

function themeColours(source: string): Record<string, string> {
  const theme = /@theme\s*\{([\s\S]*?)\}/.exec(source)?.[1] ?? "";
  const colours: Record<string, string> = {};
  for (const m of theme.matchAll(/--color-([a-z0-9-]+):\s*(#[0-9a-f]{6})\s*;/gi)) colours[m[1]] = m[2].toLowerCase();
  return colours;
}

const colours: Record<string, string> = { ...themeColours(css), white: "#ffffff" };

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The note above the tokens in app/site.css: one line a text or control pair, "ink on ground  14.89:1  body text". */
const note = /Brand palette and measured WCAG contrast ratios[\s\S]*?\n \* All pairs meet AA/.exec(css)?.[0] ?? "";
const noteLines = note.split("\n").filter((line) => /^ \* {3}\S/.test(line));
const PAIR_LINE = /^ \* {3}([a-z-]+) on ([a-z-]+) +(\d+\.\d+):1 {3}(\S.*)$/;

/** The pairs the site uses for text and controls, with the ratio the note writes; every one must meet AA for body text. */
const PAIRS = noteLines.map((line) => {
  const [, fg, bg, written, use] = PAIR_LINE.exec(line) ?? [line, "", "", "NaN", line];
  return { fg, bg, written: Number(written), min: 4.5, use };
});

describe("brand palette contrast (WCAG 2.1 AA)", () => {
  it("reads every colour token from site.css", () => {
    for (const name of ["ink", "ground", "soft", "muted", "accent", "brass", "brass-light", "error", "success"])
      expect(colours[name], name).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("reads the note's every pair line: fg on bg, the ratio written, what it is used for", () => {
    expect(noteLines.length).toBeGreaterThanOrEqual(13);
    for (const line of noteLines) expect(line).toMatch(PAIR_LINE);
    expect(PAIRS.map((p) => `${p.fg} on ${p.bg}`)).toContain("white on accent");
  });

  it("computes the reference ratios of the WCAG definition", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });

  it.each(PAIRS)("$fg on $bg ($use): at least $min:1, as written in site.css", ({ fg, bg, written, min }) => {
    const ratio = contrast(colours[fg], colours[bg]);
    expect(ratio).toBeGreaterThanOrEqual(min);
    expect(Math.abs(ratio - written), `computed ${ratio.toFixed(2)}:1, written ${written}:1`).toBeLessThan(0.06);
  });

  it("the pressed and hover shades stay AA: white on accent-dark, accent-dark on ground", () => {
    expect(contrast(colours.white, colours["accent-dark"])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours["accent-dark"], colours.ground)).toBeGreaterThanOrEqual(4.5);
  });
});

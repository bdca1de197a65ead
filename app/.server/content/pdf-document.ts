/**
 * What the lawyers' PDF bios (bio-pdf.ts) and the certificates of attendance
 * (events/certificate.ts) share: one tagged Letter page made with pdfkit, in
 * the site's embedded fonts and palette, its bytes gathered as it is
 * written, and the brass rules drawn as layout artifacts.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import { FIRM } from "~/config/firm";

// Letter, in points; the palette of app/site.css (ink, brass, muted: AA on white).
export const PAGE = { width: 612, height: 792 };
export const INK = "#13233a";
export const MUTED = "#4a5566";
export const BRASS = "#8a6a2f";

const require = createRequire(import.meta.url);
const FONT_FILES = {
  sans: "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf",
  sansBold: "@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf",
  serif: "@expo-google-fonts/source-serif-4/600SemiBold/SourceSerif4_600SemiBold.ttf",
} as const;
/**
 * The fonts, parsed once per process and given to every document: a font
 * parsed anew for each PDF decodes its OpenType tables again while laying out
 * the text, most of a bio's CPU time. pdfkit embeds a subset of
 * the glyphs each document uses. PDFs are made one at a time (bioWork).
 */
let fonts: Record<keyof typeof FONT_FILES, fontkit.Font> | undefined;
export function loadFonts() {
  fonts ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => [name, fontkit.create(fs.readFileSync(require.resolve(file)))]),
  ) as Record<keyof typeof FONT_FILES, fontkit.Font>;
  return fonts;
}

/**
 * A tagged Letter document (language en-CA, its title shown, PDF 1.7) with
 * the fonts registered as "sans", "sansBold" and "serif" and a "Document"
 * structure root; `finish` closes the root and the document and gives the
 * bytes.
 */
export function letterDocument(
  margin: number,
  info: { Title: string; Subject: string; Keywords: string },
): { doc: PDFKit.PDFDocument; root: PDFKit.PDFStructureElement; finish: () => Promise<Buffer> } {
  const f = loadFonts();
  const doc = new PDFDocument({
    size: "LETTER",
    margin,
    autoFirstPage: true,
    tagged: true,
    lang: "en-CA",
    displayTitle: true,
    pdfVersion: "1.7",
    info: { Title: info.Title, Author: FIRM.name, Subject: info.Subject, Keywords: info.Keywords, Creator: FIRM.name },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  // pdfkit's types name a path or bytes; registerFont also takes a parsed fontkit font (pdfkit 0.18+).
  doc.registerFont("sans", f.sans as never);
  doc.registerFont("sansBold", f.sansBold as never);
  doc.registerFont("serif", f.serif as never);
  const root = doc.struct("Document");
  doc.addStructure(root);
  const finish = async () => {
    root.end();
    doc.end();
    await done;
    return Buffer.concat(chunks);
  };
  return { doc, root, finish };
}

/** A brass rule across the page between the margins at `y`, marked as a layout artifact (no text for a reader). */
export function brassRule(doc: PDFKit.PDFDocument, margin: number, y: number, lineWidth: number) {
  doc.markContent("Artifact", { type: "Layout" });
  doc
    .moveTo(margin, y)
    .lineTo(PAGE.width - margin, y)
    .lineWidth(lineWidth)
    .strokeColor(BRASS)
    .stroke();
  doc.endMarkedContent();
}

/**
 * A lawyer's one-page bio as a PDF (issue 33; `/lawyer/:slug/bio.pdf`), made
 * on the server with pdfkit: Letter size, the firm's letterhead, the
 * portrait, name and title, contact details, bar admissions, languages,
 * education, practice areas, the start of the bio and the three latest
 * insights. Inter and Source Serif 4 (the site's families, static TrueType
 * files from the @expo-google-fonts packages: pdfkit cannot use the site's
 * variable WOFF2 files) are embedded as subsets, so the text is selectable
 * and searchable; the file is a tagged PDF (structure tree, headings, lists,
 * the portrait as a figure with its alternative text, decoration marked as
 * artifacts) with its language and title set (decision 0020).
 *
 * Every block has a fixed place and a height it may not pass (longer text
 * ends with "…"), so the bio is always one page, however long the profile.
 *
 * Caching (like the pictures): the PDF is stored as `bios/{id}-{hash}.pdf`,
 * where the hash covers everything printed on it (and BIO_LAYOUT_VERSION), so
 * a profile, picture or insight change makes a new key and the next request
 * makes it again; the member's earlier PDFs are removed then. The portrait
 * is made once as `og/bio-photo-{stem}.jpg` (removed with the picture).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import { FIRM, fullAddress } from "~/config/firm";
import { PRACTICE_AREAS, PRACTICE_PAGES, type PracticeArea } from "~/lib/practice";
import { hasCertification, specialistText, spokenLanguages, type Admission, type Education } from "~/lib/profile";
import { derivedPicture, MAX_PIXELS } from "../pictures/images";
import { createLimiter } from "../http/limiter";
import { log } from "../log";
import { getStorage } from "../storage/storage";

/** Raised when the layout changes: every stored PDF is made again. */
export const BIO_LAYOUT_VERSION = 1;

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
function loadFonts() {
  fonts ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => [name, fontkit.create(fs.readFileSync(require.resolve(file)))]),
  ) as Record<keyof typeof FONT_FILES, fontkit.Font>;
  return fonts;
}

/** What the PDF prints (and what its cache key is made of). */
export type BioInput = {
  id: number;
  slug: string;
  full_name: string;
  title: string;
  email: string;
  extension: number | null;
  mobile: string;
  desc: string;
  img: string;
  AOP: readonly string[];
  area_details: readonly string[];
  admissions: readonly Admission[];
  languages: readonly string[];
  other_languages: string;
  education: readonly Education[];
  specialist_area: string;
  specialist_year: number | null;
  insights: readonly { title: string; date: string }[];
  /** The profile's address (PUBLIC_URL). */
  profileUrl: string;
};

// Letter, in points; the palette of app/site.css (ink, brass, muted: AA on white).
const PAGE = { width: 612, height: 792 };
const MARGIN = 48;
const INK = "#13233a";
const MUTED = "#4a5566";
const BRASS = "#8a6a2f";
const LEFT = { x: MARGIN, width: 156 };
const RIGHT = { x: MARGIN + 156 + 28, width: PAGE.width - 2 * MARGIN - 156 - 28 };
const BOTTOM = PAGE.height - MARGIN - 18;

/** The cache key's hash: everything printed, and the layout's version. */
export function bioHash(input: BioInput): string {
  return createHash("sha256")
    .update(JSON.stringify({ v: BIO_LAYOUT_VERSION, input, firm: FIRM }))
    .digest("hex")
    .slice(0, 32);
}

export function bioKey(input: BioInput): string {
  return `bios/${input.id}-${bioHash(input)}.pdf`;
}

/** The portrait as a 4:5 JPEG for the PDF (pdfkit reads JPEG and PNG only), made once and stored. */
export function bioPhoto(img: string): Promise<Buffer | undefined> {
  const stem = /^([a-z0-9-]{1,72})\.(jpg|png|webp|avif)$/.exec(img)?.[1];
  if (!stem) return Promise.resolve(undefined);
  return derivedPicture(`og/bio-photo-${stem}.jpg`, "team", stem, (source) =>
    sharp(source, { limitInputPixels: MAX_PIXELS, failOn: "error" })
      .rotate()
      .resize(480, 600, { fit: "cover", position: "north" })
      .flatten({ background: "#ffffff" })
      // libjpeg-turbo, not mozjpeg: a few kilobytes more, several times faster (a bio's first request waits for it).
      .jpeg({ quality: 82 })
      .toBuffer(),
  );
}

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

/** Makes the PDF's bytes. */
export async function renderBioPdf(input: BioInput, photo: Buffer | undefined): Promise<Buffer> {
  const f = loadFonts();
  const doc = new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    autoFirstPage: true,
    tagged: true,
    lang: "en-CA",
    displayTitle: true,
    pdfVersion: "1.7",
    info: {
      Title: `${input.full_name}, ${input.title} | ${FIRM.name}`,
      Author: FIRM.name,
      Subject: `Biography of ${input.full_name}`,
      Keywords: "lawyer biography",
      Creator: FIRM.name,
    },
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
  letterhead(doc, root);

  // The left column: portrait, contact details, admissions, languages, education.
  let y = 132;
  if (photo) {
    const height = (LEFT.width * 5) / 4;
    root.add(
      doc.struct("Figure", { alt: `Portrait of ${input.full_name}` }, () => doc.image(photo, LEFT.x, y, { width: LEFT.width, height })),
    );
    y += height + 18;
  }
  const phone = `${FIRM.phone}${input.extension ? ` ext. ${input.extension}` : ""}`;
  y = section(
    doc,
    root,
    "Contact",
    [phone, ...(input.mobile.trim() ? [`Mobile ${input.mobile.trim()}`] : []), input.email],
    LEFT,
    y,
    BOTTOM,
    { fit: true },
  );
  y = section(
    doc,
    root,
    "Bar admissions",
    input.admissions.map((a) => `${a.jurisdiction}, ${a.year}`),
    LEFT,
    y,
    BOTTOM,
  );
  y = section(
    doc,
    root,
    "Languages",
    spokenLanguages(input).map((l) => l.label),
    LEFT,
    y,
    BOTTOM,
  );
  section(
    doc,
    root,
    "Education",
    input.education.map((e) => [e.degree, e.school, e.year].filter(Boolean).join(", ")),
    LEFT,
    y,
    BOTTOM,
  );

  // The right column: name, title, certification, practice areas, the bio, the latest insights.
  let r = 126;
  doc.font("serif").fontSize(26).fillColor(INK);
  root.add(doc.struct("H1", {}, () => doc.text(input.full_name, RIGHT.x, r, { width: RIGHT.width, height: 64, ellipsis: true })));
  r = doc.y + 2;
  doc.font("sans").fontSize(12.5).fillColor(BRASS);
  root.add(doc.struct("P", {}, () => doc.text(input.title, RIGHT.x, r, { width: RIGHT.width, height: 34, ellipsis: true })));
  r = doc.y + 4;
  if (hasCertification(input)) {
    doc.font("sans").fontSize(9.5).fillColor(INK);
    root.add(
      doc.struct("P", {}, () =>
        doc.text(specialistText(input.specialist_area, input.specialist_year), RIGHT.x, r, {
          width: RIGHT.width,
          height: 26,
          ellipsis: true,
        }),
      ),
    );
    r = doc.y + 4;
  }
  const areas = input.AOP.map((a) => a.toLowerCase()).filter((a): a is PracticeArea => (PRACTICE_AREAS as readonly string[]).includes(a));
  const practice = [...areas.map((a) => PRACTICE_PAGES[a].title), ...input.area_details];
  // The insights take the bottom of the column; the bio fills what is left above them.
  const insightsTop = input.insights.length ? BOTTOM - 24 - input.insights.length * 30 : BOTTOM;
  r = section(doc, root, "Practice areas", practice.length ? [practice.join(" · ")] : [], RIGHT, r + 10, insightsTop - 60, { list: false });
  const bio = input.desc.replace(/\s+\n/g, "\n").trim();
  if (bio && r < insightsTop - 40) {
    r = heading(doc, root, "Profile", RIGHT, r);
    doc.font("sans").fontSize(9.5).fillColor(INK);
    const options = { width: RIGHT.width, lineGap: 2, paragraphGap: 4 };
    const fitted = fitText(doc, bio.replace(/\n{2,}/g, "\n"), options, insightsTop - 14 - r);
    root.add(doc.struct("P", {}, () => doc.text(fitted, RIGHT.x, r, { ...options, height: insightsTop - 14 - r })));
    r = doc.y + 14;
  }
  if (input.insights.length) {
    // Under the bio, or at the bottom of the column when the bio fills it.
    let i = heading(doc, root, "Recent insights", RIGHT, Math.min(r, insightsTop));
    const list = doc.struct("L");
    root.add(list);
    for (const item of input.insights) {
      const li = doc.struct("LI");
      list.add(li);
      doc.font("sansBold").fontSize(9.5).fillColor(INK);
      li.add(doc.struct("LBody", {}, () => doc.text(item.title, RIGHT.x, i, { width: RIGHT.width, height: 13, ellipsis: true })));
      doc.font("sans").fontSize(8.5).fillColor(MUTED);
      li.add(doc.struct("P", {}, () => doc.text(item.date, RIGHT.x, i + 12.5, { width: RIGHT.width, height: 12, ellipsis: true })));
      li.end();
      i += 30;
    }
    list.end();
  }

  // The footer: the profile's address.
  doc.font("sans").fontSize(8).fillColor(MUTED);
  root.add(
    doc.struct("P", {}, () =>
      doc.text(`Full profile: ${input.profileUrl}`, MARGIN, PAGE.height - MARGIN - 8, {
        width: PAGE.width - 2 * MARGIN,
        height: 12,
        ellipsis: true,
        lineBreak: false,
      }),
    ),
  );
  root.end();
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** The firm's letterhead: name, address and contacts, and a brass rule (an artifact). */
function letterhead(doc: Doc, root: Struct) {
  const sect = doc.struct("Sect", { title: "Letterhead" });
  root.add(sect);
  doc.font("serif").fontSize(22).fillColor(INK);
  sect.add(doc.struct("P", {}, () => doc.text(FIRM.name, MARGIN, MARGIN, { width: 260, lineBreak: false })));
  doc.font("sans").fontSize(8.5).fillColor(MUTED);
  const lines = [fullAddress(), `Tel. ${FIRM.phone}  ·  Fax ${FIRM.fax}`, FIRM.email];
  sect.add(
    doc.struct("P", {}, () =>
      doc.text(lines.join("\n"), PAGE.width - MARGIN - 260, MARGIN + 1, { width: 260, align: "right", lineGap: 1.5 }),
    ),
  );
  sect.end();
  doc.markContent("Artifact", { type: "Layout" });
  doc
    .moveTo(MARGIN, 100)
    .lineTo(PAGE.width - MARGIN, 100)
    .lineWidth(1.25)
    .strokeColor(BRASS)
    .stroke();
  doc.endMarkedContent();
}

/** The longest start of `text` (whole words, then "…") that fits in `height` at the current font. */
function fitText(doc: Doc, text: string, options: PDFKit.Mixins.TextOptions, height: number): string {
  if (doc.heightOfString(text, options) <= height) return text;
  const words = text.split(/(?<=\s)/);
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.heightOfString(`${words.slice(0, mid).join("").trimEnd()}…`, options) <= height) low = mid;
    else high = mid - 1;
  }
  return `${words.slice(0, low).join("").trimEnd()}…`;
}

/** A line that must not wrap (an e-mail address): a smaller size until it fits, down to 7 pt. */
function fitSize(doc: Doc, text: string, width: number, size: number): number {
  let s = size;
  // A little room to spare: pdfkit's line wrapper breaks a word that fills the width exactly.
  while (s > 7 && doc.fontSize(s).widthOfString(text) > width - 4) s -= 0.25;
  return s;
}

function heading(doc: Doc, root: Struct, text: string, col: { x: number; width: number }, y: number): number {
  doc.font("sansBold").fontSize(8.5).fillColor(BRASS);
  root.add(doc.struct("H2", {}, () => doc.text(text.toUpperCase(), col.x, y, { width: col.width, lineBreak: false })));
  return y + 14;
}

/**
 * A heading and its entries (a list, or one paragraph with `list: false`)
 * from `y`, never past `maxY`: entries that do not fit are left out, a long
 * one ends with "…". Nothing (not even the heading) when there are no entries.
 */
function section(
  doc: Doc,
  root: Struct,
  title: string,
  items: readonly string[],
  col: { x: number; width: number },
  y: number,
  maxY: number,
  options: { list?: boolean; fit?: boolean } = {},
): number {
  if (items.length === 0 || y + 30 > maxY) return y;
  let at = heading(doc, root, title, col, y);
  doc.font("sans").fontSize(9.5).fillColor(INK);
  if (options.list === false) {
    const text = items.join("\n");
    root.add(doc.struct("P", {}, () => doc.text(text, col.x, at, { width: col.width, height: maxY - at, ellipsis: true, lineGap: 2 })));
    return doc.y + 14;
  }
  const list = doc.struct("L");
  root.add(list);
  for (const item of items) {
    if (at + 12 > maxY) break;
    const li = doc.struct("LI");
    list.add(li);
    doc.fontSize(options.fit ? fitSize(doc.font("sans"), item, col.width, 9.5) : 9.5);
    li.add(
      doc.struct("LBody", {}, () =>
        doc.text(item, col.x, at, { width: col.width, height: Math.min(40, maxY - at), ellipsis: true, lineGap: 1 }),
      ),
    );
    li.end();
    at = doc.y + 3;
  }
  list.end();
  return at + 12;
}

/** PDF work one at a time (each is tens of milliseconds of CPU), first come first served, like the pictures. */
export const bioWork = createLimiter(1);
const inflight = new Map<string, Promise<Buffer>>();

/**
 * The member's bio PDF: from storage when made for this exact content,
 * else made now (once, however many ask at the same time), stored, and the
 * member's earlier PDFs removed. A store that refuses the write costs a
 * remake next time, not the answer.
 */
export function getBioPdf(input: BioInput): Promise<{ bytes: Buffer; hash: string }> {
  const key = bioKey(input);
  const hash = bioHash(input);
  let pending = inflight.get(key);
  if (!pending) {
    pending = loadOrMakeBio(key, input).finally(() => inflight.delete(key));
    inflight.set(key, pending);
  }
  return pending.then((bytes) => ({ bytes, hash }));
}

async function loadOrMakeBio(key: string, input: BioInput): Promise<Buffer> {
  const storage = getStorage();
  const stored = await storage.get(key);
  if (stored) return stored;
  const photo = input.img ? await bioPhoto(input.img).catch(() => undefined) : undefined;
  const bytes = await bioWork.run(() => renderBioPdf(input, photo));
  await storage.put(key, bytes).catch((error: unknown) => log("warn", "bio PDF not stored", { key, error: (error as Error).message }));
  await removeBios(input.id, key).catch(() => {});
  return bytes;
}

/** Removes a member's stored bio PDFs (all, or all but `keep`): a newer one was made, or the member was purged. */
export async function removeBios(memberId: number, keep?: string): Promise<void> {
  const storage = getStorage();
  const prefix = `bios/${memberId}-`;
  for (const key of await storage.list("bios")) if (key.startsWith(prefix) && key !== keep) await storage.delete(key);
}

/**
 * A lawyer's one-page bio as a PDF (issue 33; `/lawyer/:slug/bio.pdf`), made
 * on the server with pdfkit: Letter size, one column read top to bottom
 * (issue 43): name, title and contact details beside the portrait, then
 * practice areas (each once), the bio, representative matters, bar
 * admissions, education, languages, memberships and the three latest
 * insights, and the firm's letterhead as the footer. Inter and Source Serif 4 (the site's families, static TrueType
 * files from the @expo-google-fonts packages: pdfkit cannot use the site's
 * variable WOFF2 files) are embedded as subsets, so the text is selectable
 * and searchable; the file is a tagged PDF (structure tree, headings, lists,
 * the portrait as a figure with its alternative text, decoration marked as
 * artifacts) with its language and title set (decision 0020).
 *
 * The sections are measured first; entries are left out from the end of the
 * longest ones (one of each is always kept) until they fit with five lines of
 * the bio, and the bio takes the rest of the page (ending with "…"): the page
 * is used to its foot and is always one page, however long the profile.
 *
 * Caching (like the pictures): the PDF is stored as `bios/{id}-{hash}.pdf`,
 * where the hash covers everything printed on it (and BIO_LAYOUT_VERSION), so
 * a profile, picture or insight change makes a new key and the next request
 * makes it again; the member's earlier PDFs are removed then. The portrait
 * is made once as `og/bio-photo-{stem}.jpg` (removed with the picture).
 */
import { createHash } from "node:crypto";
import sharp from "sharp";
import { FIRM, fullAddress } from "~/config/firm";
import { PRACTICE_AREAS, PRACTICE_PAGES, type PracticeArea } from "~/lib/practice";
import { hasCertification, specialistText, spokenLanguages, type Admission, type Education, type ProfileBasics } from "~/lib/profile";
import { derivedPicture, MAX_PIXELS } from "../pictures/images";
import { createLimiter } from "../http/limiter";
import { log } from "../log";
import { getStorage } from "../storage/storage";
import { BRASS, brassRule, INK, letterDocument, MUTED, PAGE } from "./pdf-document";
import { articleText, sanitizeMattersHtml } from "./sanitize";

/** Raised when the layout changes: every stored PDF is made again. */
export const BIO_LAYOUT_VERSION = 2;

/** What the PDF prints (and what its cache key is made of). */
export type BioInput = ProfileBasics & {
  id: number;
  slug: string;
  img: string;
  AOP: readonly string[];
  area_details: readonly string[];
  admissions: readonly Admission[];
  languages: readonly string[];
  other_languages: string;
  education: readonly Education[];
  specialist_area: string;
  specialist_year: number | null;
  /** Representative matters, one entry each, as plain text (bioMatters). */
  matters: readonly string[];
  memberships: readonly string[];
  insights: readonly { title: string; date: string }[];
  /** The profile's address (PUBLIC_URL). */
  profileUrl: string;
};

// Letter, in points (pdf-document.ts: the page and the palette).
const MARGIN = 48;
/** One column the width of the page: a reader (pdftotext, a screen reader, copy and paste) meets the text in the order it is printed. */
const COLUMN = { x: MARGIN, width: PAGE.width - 2 * MARGIN };
const PORTRAIT = { width: 96, height: 120 };
/** The footer (the firm and the profile's address) starts here; the sections stop above it. */
const FOOTER_TOP = PAGE.height - MARGIN - 22;
const BOTTOM = FOOTER_TOP - 12;
const BODY_SIZE = 9.5;
const HEADING_HEIGHT = 14;
const SECTION_GAP = 11;
/** Each list entry or one-paragraph section stops after this many lines (with "…"). */
const ENTRY_LINES = 3;
/** The profile (the bio) is given at least this many lines; the other sections are trimmed for it if need be. */
const MIN_BIO_LINES = 5;

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

/** The representative matters (the profile's sanitised HTML) as plain entries: one per list item or paragraph. */
export function bioMatters(html: string): string[] {
  return sanitizeMattersHtml(html)
    .split(/<\/li>|<\/p>|<br\s*\/?>/i)
    .map((part) => articleText(part))
    .filter(Boolean);
}

/**
 * The practice areas printed: the areas' names, then the fields of expertise,
 * each once however it is capitalised or spaced ("Insurance Defence" and
 * "insurance  defence" are one).
 */
export function bioPracticeAreas(input: Pick<BioInput, "AOP" | "area_details">): string[] {
  const areas = input.AOP.map((a) => a.toLowerCase()).filter((a): a is PracticeArea => (PRACTICE_AREAS as readonly string[]).includes(a));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of [...areas.map((a) => PRACTICE_PAGES[a].title), ...input.area_details]) {
    const text = name.replace(/\s+/g, " ").trim();
    const key = text.toLocaleLowerCase("en-CA");
    if (!text || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

/**
 * A section of the page: a heading and its entries, printed as a list (one
 * entry a line or more) or as one paragraph (entries joined by " · ").
 * `min` entries are kept when the page is short of room; the others are
 * left out from the end.
 */
type Block = { title: string; items: string[]; kind: "list" | "line"; min: number; detail?: (i: number) => string };

/** Makes the PDF's bytes. */
export async function renderBioPdf(input: BioInput, photo: Buffer | undefined): Promise<Buffer> {
  const { doc, root, finish } = letterDocument(MARGIN, {
    Title: `${input.full_name}, ${input.title} | ${FIRM.name}`,
    Subject: `Biography of ${input.full_name}`,
    Keywords: "lawyer biography",
  });

  // The sections under the header, in reading order; the profile (the bio) takes the room the others leave.
  const insights = input.insights.map((i) => i.title);
  const blocks: Block[] = [
    { title: "Practice areas", items: bioPracticeAreas(input), kind: "line", min: 1 },
    { title: "Representative matters", items: [...input.matters], kind: "list", min: 1 },
    { title: "Bar admissions", items: input.admissions.map((a) => `${a.jurisdiction}, ${a.year}`), kind: "line", min: 1 },
    {
      title: "Education",
      items: input.education.map((e) => [e.degree, e.school, e.year].filter(Boolean).join(", ")),
      kind: "list",
      min: 1,
    },
    { title: "Languages", items: spokenLanguages(input).map((l) => l.label), kind: "line", min: 1 },
    { title: "Professional memberships", items: [...input.memberships], kind: "list", min: 1 },
    { title: "Recent insights", items: insights, kind: "list", min: 1, detail: (i: number) => input.insights[i]?.date ?? "" },
  ].filter((b): b is Block => b.items.length > 0);

  let y = header(doc, root, input, photo);
  const bio = input.desc
    .replace(/\s+\n/g, "\n")
    .trim()
    .replace(/\n{2,}/g, "\n");
  const bioOptions = { width: COLUMN.width, lineGap: 2, paragraphGap: 4 };
  doc.font("sans").fontSize(BODY_SIZE);
  const lineHeight = doc.currentLineHeight(true) + bioOptions.lineGap;
  const bioNeed = bio ? HEADING_HEIGHT + Math.min(doc.heightOfString(bio, bioOptions), MIN_BIO_LINES * lineHeight) + SECTION_GAP : 0;
  fitBlocks(doc, blocks, BOTTOM - y - bioNeed);
  const bioRoom = BOTTOM - y - blocks.reduce((sum, b) => sum + blockHeight(doc, b), 0) - HEADING_HEIGHT - SECTION_GAP;

  const [practice, ...rest] = blocks[0]?.title === "Practice areas" ? blocks : [undefined, ...blocks];
  if (practice) y = printBlock(doc, root, practice, y);
  if (bio && bioRoom >= lineHeight) {
    y = heading(doc, root, "Profile", y);
    doc.font("sans").fontSize(BODY_SIZE).fillColor(INK);
    const fitted = fitText(doc, bio, bioOptions, bioRoom);
    const top = y;
    root.add(doc.struct("P", {}, () => doc.text(fitted, COLUMN.x, top, { ...bioOptions, height: bioRoom })));
    y = doc.y + SECTION_GAP;
  }
  for (const block of rest) if (block) y = printBlock(doc, root, block, y);

  footer(doc, root, input);
  return finish();
}

/**
 * The header: name, title, certification and contact details on the left,
 * the portrait on the right (a figure: it holds no text, so it never splits
 * the reading order), and a brass rule under both. Returns where the
 * sections begin.
 */
function header(doc: Doc, root: Struct, input: BioInput, photo: Buffer | undefined): number {
  const textWidth = photo ? COLUMN.width - PORTRAIT.width - 24 : COLUMN.width;
  let y = MARGIN;
  doc.font("serif").fontSize(26).fillColor(INK);
  root.add(doc.struct("H1", {}, () => doc.text(input.full_name, COLUMN.x, y, { width: textWidth, height: 64, ellipsis: true })));
  y = doc.y + 2;
  doc.font("sans").fontSize(12.5).fillColor(BRASS);
  const titleTop = y;
  root.add(doc.struct("P", {}, () => doc.text(input.title, COLUMN.x, titleTop, { width: textWidth, height: 34, ellipsis: true })));
  y = doc.y + 6;
  if (hasCertification(input)) {
    doc.font("sans").fontSize(BODY_SIZE).fillColor(INK);
    const top = y;
    root.add(
      doc.struct("P", {}, () =>
        doc.text(specialistText(input.specialist_area, input.specialist_year), COLUMN.x, top, {
          width: textWidth,
          height: 26,
          ellipsis: true,
        }),
      ),
    );
    y = doc.y + 6;
  }
  const phone = `Tel. ${FIRM.phone}${input.extension ? ` ext. ${input.extension}` : ""}`;
  const contact = [[phone, ...(input.mobile.trim() ? [`Mobile ${input.mobile.trim()}`] : [])].join("  ·  "), input.email];
  doc.font("sans").fontSize(BODY_SIZE).fillColor(INK);
  const contactTop = y;
  root.add(
    doc.struct("P", {}, () =>
      doc.text(contact.join("\n"), COLUMN.x, contactTop, { width: textWidth, height: 40, ellipsis: true, lineGap: 2 }),
    ),
  );
  y = doc.y;
  if (photo) {
    root.add(
      doc.struct("Figure", { alt: `Portrait of ${input.full_name}` }, () =>
        doc.image(photo, COLUMN.x + COLUMN.width - PORTRAIT.width, MARGIN, PORTRAIT),
      ),
    );
    y = Math.max(y, MARGIN + PORTRAIT.height);
  }
  y += 12;
  brassRule(doc, MARGIN, y, 1.25);
  return y + 16;
}

/** The footer, last in reading order: the firm's name, address and contacts, and the profile's address. */
function footer(doc: Doc, root: Struct, input: BioInput) {
  brassRule(doc, MARGIN, FOOTER_TOP - 6, 0.5);
  const sect = doc.struct("Sect", { title: "Letterhead" });
  root.add(sect);
  const firm = `${FIRM.name}  ·  ${fullAddress()}  ·  Tel. ${FIRM.phone}  ·  Fax ${FIRM.fax}`;
  doc.font("sans").fontSize(8).fillColor(MUTED);
  const options = { width: COLUMN.width, height: 11, ellipsis: true, lineBreak: false };
  sect.add(doc.struct("P", {}, () => doc.text(firm, COLUMN.x, FOOTER_TOP, options)));
  sect.add(doc.struct("P", {}, () => doc.text(`${FIRM.email}  ·  Full profile: ${input.profileUrl}`, COLUMN.x, FOOTER_TOP + 11, options)));
  sect.end();
}

const entryOptions = (width: number) => ({ width, lineGap: 1.5 });
const LIST_INDENT = 10;

/** The height of one entry as printed (at most ENTRY_LINES lines). */
function entryHeight(doc: Doc, text: string, width: number): number {
  doc.font("sans").fontSize(BODY_SIZE);
  const line = doc.currentLineHeight(true) + 1.5;
  return Math.min(doc.heightOfString(text, entryOptions(width)), ENTRY_LINES * line);
}

/** What a section takes on the page, heading and gap included. */
function blockHeight(doc: Doc, block: Block): number {
  if (block.kind === "line") return HEADING_HEIGHT + entryHeight(doc, block.items.join("  ·  "), COLUMN.width) + SECTION_GAP;
  let h = HEADING_HEIGHT + SECTION_GAP;
  block.items.forEach((item, i) => {
    h += entryHeight(doc, item, COLUMN.width - LIST_INDENT) + 3 + (block.detail?.(i) ? 11 : 0);
  });
  return h;
}

/**
 * Leaves out entries from the end of the longest sections (never below their
 * `min`), then whole sections from the end, until they fit in `room`.
 */
function fitBlocks(doc: Doc, blocks: Block[], room: number) {
  const total = () => blocks.reduce((sum, b) => sum + blockHeight(doc, b), 0);
  while (blocks.length && total() > room) {
    const trimmable = blocks.filter((b) => b.items.length > b.min);
    if (!trimmable.length) {
      blocks.pop();
      continue;
    }
    const longest = trimmable.reduce((a, b) => (blockHeight(doc, b) >= blockHeight(doc, a) ? b : a));
    longest.items.pop();
  }
}

function printBlock(doc: Doc, root: Struct, block: Block, top: number): number {
  let y = heading(doc, root, block.title, top);
  doc.font("sans").fontSize(BODY_SIZE).fillColor(INK);
  if (block.kind === "line") {
    const text = block.items.join("  ·  ");
    const height = entryHeight(doc, text, COLUMN.width);
    root.add(doc.struct("P", {}, () => doc.text(text, COLUMN.x, y, { ...entryOptions(COLUMN.width), height, ellipsis: true })));
    return y + height + SECTION_GAP;
  }
  const list = doc.struct("L");
  root.add(list);
  block.items.forEach((item, i) => {
    const li = doc.struct("LI");
    list.add(li);
    const width = COLUMN.width - LIST_INDENT;
    const height = entryHeight(doc, item, width);
    const at = y;
    doc.markContent("Artifact", { type: "Layout" });
    doc.rect(COLUMN.x + 1, at + 4.5, 3, 3).fill(BRASS);
    doc.endMarkedContent();
    const detail = block.detail?.(i);
    doc
      .font(detail ? "sansBold" : "sans")
      .fontSize(BODY_SIZE)
      .fillColor(INK);
    li.add(doc.struct("LBody", {}, () => doc.text(item, COLUMN.x + LIST_INDENT, at, { ...entryOptions(width), height, ellipsis: true })));
    y += height;
    if (detail) {
      doc.font("sans").fontSize(8.5).fillColor(MUTED);
      const dateTop = y;
      li.add(
        doc.struct("P", {}, () =>
          doc.text(detail, COLUMN.x + LIST_INDENT, dateTop, { width, height: 11, ellipsis: true, lineBreak: false }),
        ),
      );
      y += 11;
    }
    y += 3;
    li.end();
  });
  list.end();
  return y + SECTION_GAP;
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

function heading(doc: Doc, root: Struct, text: string, y: number): number {
  doc.font("sansBold").fontSize(8.5).fillColor(BRASS);
  root.add(doc.struct("H2", {}, () => doc.text(text.toUpperCase(), COLUMN.x, y, { width: COLUMN.width, lineBreak: false })));
  return y + HEADING_HEIGHT;
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

/**
 * Pictures inside article bodies (issue 12). Uploaded from the editor's
 * toolbar through the article picture pipeline (app/.server/pictures/images.ts) and
 * stored in the articles folder as `articles/body-{uuid}.{ext}`, with the
 * same responsive widths (`body-{uuid}-480.webp`, AVIF on first request), so
 * disk and bucket storage, the /images/ route and backups need nothing new.
 *
 * The stored HTML always names the original at one fixed, site-relative path
 * (`/images/articles/body-{uuid}.{ext}`): the sanitiser keeps an <img> only
 * with such a src and an alt text, and the public page turns it into a
 * responsive <picture> at render time (PICTURE_BASE_URL may move the widths).
 */
import { ARTICLE_WIDTHS, DEFAULT_PICTURE_BASE } from "./images";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const NAME = `body-${UUID}\\.(?:jpg|png|webp|avif)`;

/** The only src an <img> in an article body may have (the name is group 1). */
export const BODY_PICTURE_SRC = new RegExp(`^/images/articles/(${NAME})$`);
/** A body picture's file name, wherever it appears in a text. */
const NAME_ANYWHERE = new RegExp(`/images/articles/(${NAME})`, "g");
/** The same, for PostgreSQL's regexp_matches (no non-capturing groups there either way). */
export const BODY_PICTURE_NAME_SQL = `body-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(jpg|png|webp|avif)`;

export function isBodyPictureName(name: string): boolean {
  return new RegExp(`^${NAME}$`).test(name);
}

/** The src stored in the body for a picture file name. */
export function bodyPictureSrc(name: string): string {
  return `/images/articles/${name}`;
}

/** Every body picture a text (HTML, or JSON holding HTML) names, once each. */
export function bodyPictureNames(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(NAME_ANYWHERE)].map((m) => m[1]))];
}

export const MAX_ALT = 300;

/** The editor's and the upload route's words. */
export const BODY_PICTURE_TEXT = {
  altRequired: "Describe the picture (alt text) for people who cannot see it.",
  altTooLong: `The description (alt text) must be at most ${MAX_ALT} characters.`,
  fileRequired: "Choose a JPEG, PNG, WebP or AVIF picture.",
  missingAlt: "Every picture in the article body needs a description (alt text). Remove the picture and insert it again with one.",
} as const;

/** The alt text as the upload route checks it: trimmed, required, at most MAX_ALT characters. */
export function checkAlt(value: unknown): { ok: true; alt: string } | { ok: false; message: string } {
  const alt = typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
  if (!alt) return { ok: false, message: BODY_PICTURE_TEXT.altRequired };
  if (alt.length > MAX_ALT) return { ok: false, message: BODY_PICTURE_TEXT.altTooLong };
  if (alt.includes("\u0000")) return { ok: false, message: BODY_PICTURE_TEXT.altRequired };
  return { ok: true, alt };
}

/** The widest a body picture is shown (the article column). */
const COLUMN = 720;

function attrsOf(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/\s([a-z-]+)="([^"]*)"/g)) out[m[1]] = m[2]!;
  return out;
}

/**
 * The public page's body pictures: every `<img>` of a *sanitised* body (its
 * attributes are always `name="value"`, escaped) whose src is a body picture
 * becomes a <picture> with AVIF and WebP widths, `sizes`, width/height and
 * lazy loading. Anything else is left as it is.
 */
export function responsiveBodyPictures(html: string, base: string = DEFAULT_PICTURE_BASE): string {
  if (!html.includes("<img")) return html;
  base = base.replace(/"/g, "%22");
  return html.replace(/<img\b[^>]*>/g, (tag) => {
    const a = attrsOf(tag);
    const match = BODY_PICTURE_SRC.exec(a.src ?? "");
    if (!match || !a.alt) return tag;
    const stem = match[1].replace(/\.\w+$/, "");
    const width = /^\d{1,5}$/.test(a.width ?? "") ? Number(a.width) : 0;
    const height = /^\d{1,5}$/.test(a.height ?? "") ? Number(a.height) : 0;
    // A width is never made larger than the original: describe each by what it really is.
    const real = (w: number) => (width ? Math.min(w, width) : w);
    const widths = ARTICLE_WIDTHS.filter((w, i) => i === 0 || real(w) > real(ARTICLE_WIDTHS[i - 1]));
    const srcset = (format: "webp" | "avif") => widths.map((w) => `${base}/articles/${stem}-${w}.${format} ${real(w)}w`).join(", ");
    const sizes = `(min-width: 768px) ${width ? Math.min(width, COLUMN) : COLUMN}px, 100vw`;
    const largest = widths[widths.length - 1];
    const size = width && height ? ` width="${width}" height="${height}"` : "";
    return (
      `<picture><source type="image/avif" srcset="${srcset("avif")}" sizes="${sizes}" />` +
      `<img src="${base}/articles/${stem}-${largest}.webp" srcset="${srcset("webp")}" sizes="${sizes}" alt="${a.alt}"${size} loading="lazy" decoding="async" /></picture>`
    );
  });
}

/**
 * The allowlist for article bodies (sanitize-html). Applied when an article
 * is saved and again when it is rendered. Only the markup the editor makes
 * survives: headings, paragraphs, emphasis, lists, links, block quotes, and
 * pictures stored for article bodies (an <img> only with a src of the fixed
 * pattern in lib/body-pictures.ts and an alt text; width and height kept).
 */
import sanitizeHtml from "sanitize-html";
import { BODY_PICTURE_SRC } from "~/lib/body-pictures";
import { escapeHtml } from "~/lib/html";

const dimension = (v: string | undefined) =>
  v && /^\d{1,5}$/.test(v) && Number(v) > 0 && Number(v) <= 10_000 ? String(Number(v)) : undefined;
const isBodyPicture = (attribs: Record<string, string | undefined>) => BODY_PICTURE_SRC.test(attribs.src ?? "") && !!attribs.alt?.trim();

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "h2",
    "h3",
    "h4",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "ul",
    "ol",
    "li",
    "a",
    "blockquote",
    "hr",
    "code",
    "pre",
    "img",
  ],
  allowedAttributes: { a: ["href", "title", "rel", "target"], img: ["src", "alt", "width", "height"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Content of these is dropped entirely, not turned into text.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "title",
    "iframe",
    "object",
    "embed",
    "svg",
    "math",
    "template",
    "xmp",
    "noembed",
    "noframes",
    "plaintext",
  ],
  transformTags: {
    h1: "h2",
    a: (tagName, attribs) => {
      const external = /^https?:/i.test(attribs.href ?? "");
      return {
        tagName,
        attribs: {
          ...(attribs.href ? { href: attribs.href } : {}),
          ...(attribs.title ? { title: attribs.title } : {}),
          ...(external ? { rel: "noopener noreferrer nofollow", target: "_blank" } : {}),
        },
      };
    },
    img: (tagName, attribs) => {
      if (!isBodyPicture(attribs)) return { tagName, attribs: {} };
      const width = dimension(attribs.width);
      const height = dimension(attribs.height);
      return {
        tagName,
        attribs: { src: attribs.src, alt: attribs.alt.replace(/\s+/g, " ").trim(), ...(width && height ? { width, height } : {}) },
      };
    },
  },
  // An <img> that is not one of the site's body pictures with an alt text goes entirely.
  exclusiveFilter: (frame) =>
    (frame.tag === "a" && !frame.attribs.href && !frame.text.trim()) || (frame.tag === "img" && !isBodyPicture(frame.attribs)),
};

/** How many <img> elements of a body have no alt text (the save refuses such a body: 400). */
export function picturesWithoutAlt(html: string): number {
  let missing = 0;
  sanitizeHtml(html, {
    allowedTags: ["img"],
    allowedAttributes: { img: ["alt"] },
    exclusiveFilter: (frame) => {
      if (frame.tag === "img" && !frame.attribs.alt?.trim()) missing++;
      return false;
    },
  });
  return missing;
}

export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

const MATTERS_OPTIONS: sanitizeHtml.IOptions = {
  ...OPTIONS,
  allowedTags: ["p", "br", "strong", "b", "em", "i", "ul", "ol", "li", "a"],
  allowedAttributes: { a: ["href", "title", "rel", "target"] },
  transformTags: { a: OPTIONS.transformTags!.a },
  exclusiveFilter: (frame) => frame.tag === "a" && !frame.attribs.href && !frame.text.trim(),
};

/**
 * A lawyer's representative matters (issue 33): a short list with emphasis
 * and links only. Text typed without the editor (no markup) becomes a
 * bulleted list, one matter a line.
 */
export function sanitizeMattersHtml(input: string): string {
  const text = input.trim();
  if (!text) return "";
  // The editor's markup, or text typed without it (which may hold "<" or stray tags of its own).
  const html = /<\/?(?:p|ul|ol|li|strong|b|em|i|a|br)\b/i.test(text)
    ? text
    : `<ul>${text
        .split(/\r?\n/)
        .map((l) => l.replace(/^\s*[-*•]\s*/, "").trim())
        .filter(Boolean)
        .map((l) => `<li>${escapeHtml(l)}</li>`)
        .join("")}</ul>`;
  const clean = sanitizeHtml(html, MATTERS_OPTIONS).trim();
  return articleText(clean) ? clean : "";
}

/** Plain text of an article body (for descriptions, feeds and search). */
export function articleText(html: string): string {
  const escaped = sanitizeHtml(html.replace(/<\/(p|h\d|li|blockquote)>|<br\s*\/?>/gi, "$& "), { allowedTags: [], allowedAttributes: {} });
  return decodeEntities(escaped).replace(/\s+/g, " ").trim();
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED[entity.toLowerCase()] ?? match;
  });
}

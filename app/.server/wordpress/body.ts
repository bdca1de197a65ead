/**
 * A WordPress body made into an article body: Gutenberg block comments
 * removed (their HTML stays), shortcodes turned into their plain content
 * (captions kept as a line under the picture, embeds as links, galleries as
 * their pictures, anything else reduced to what it wraps), classic-editor
 * text given its paragraphs (WordPress's own wpautop, in short), every
 * picture and link to the old site rewritten through `rewrite`, then the
 * editor's sanitiser (app/.server/sanitize.ts) as for any save.
 */
import sanitizeHtml from "sanitize-html";
import { sanitizeArticleHtml } from "../content/sanitize";

export type Rewriter = {
  /** A picture's new src, its alt text and size, or null to keep the old one (a problem is recorded by the caller). */
  picture(src: string): { src: string; alt: string; width?: number; height?: number } | null;
  /** A link's new href (a post, an attachment), or null to keep it. */
  link(href: string): string | null;
  /** The pictures of a [gallery ids="…"] shortcode, as <img> markup. */
  gallery(ids: number[]): string;
};

export type BodyProblems = { shortcodes: Set<string>; picturesKept: string[]; picturesWithoutAlt: string[] };

const BLOCK_TAGS =
  /^<\/?(?:p|div|h[1-6]|ul|ol|li|blockquote|figure|figcaption|table|thead|tbody|tr|td|th|pre|hr|section|article|aside|header|footer|dl|dt|dd|address|form|!--)/i;

/** WordPress's paragraphs for text written without them: blank lines separate paragraphs, single newlines are line breaks. */
export function autop(html: string): string {
  if (!html.includes("\n")) return BLOCK_TAGS.test(html.trim()) || !html.trim() ? html : `<p>${html.trim()}</p>`;
  return html
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => (BLOCK_TAGS.test(chunk) ? chunk : `<p>${chunk.replace(/\n/g, "<br>\n")}</p>`))
    .join("\n");
}

/** Names that are always shortcodes (WordPress core and the common plugins), whatever their form. */
const KNOWN = new Set([
  "caption",
  "wp_caption",
  "gallery",
  "embed",
  "video",
  "audio",
  "playlist",
  "contact-form-7",
  "contact-form",
  "vc_row",
  "vc_column",
  "vc_column_text",
  "et_pb_section",
  "et_pb_row",
  "et_pb_column",
  "et_pb_text",
  "fusion_builder_container",
  "button",
  "su_button",
]);

function attrsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s\]]+))/g)) out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  return out;
}

const escapeAttr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * Shortcodes turned into plain content. A bracketed word is a shortcode only
 * when WordPress would have run it: a known name, attributes, or a closing
 * `[/name]`; "[sic]" or "[1]" in the text stay as they are.
 */
export function stripShortcodes(html: string, rewriter: Pick<Rewriter, "gallery">, found: Set<string>): string {
  let out = html;
  // Enclosing shortcodes, innermost first (page builders nest them).
  for (let pass = 0; pass < 8; pass++) {
    const before = out;
    out = out.replace(
      /\[([a-zA-Z][\w-]*)(\s[^\]]*)?\]((?:(?!\[\1[\s\]])[\s\S])*?)\[\/\1\]/g,
      (_m, name: string, attrs: string | undefined, inner: string) => {
        const n = name.toLowerCase();
        found.add(n);
        if (n === "caption" || n === "wp_caption") {
          const picture = /<a[^>]*>\s*<img[^>]*>\s*<\/a>|<img[^>]*>/i.exec(inner)?.[0] ?? "";
          const caption = (picture ? inner.replace(picture, "") : inner).trim();
          return `<p>${picture}</p>${caption ? `<p><em>${caption}</em></p>` : ""}`;
        }
        if (n === "embed" || n === "video" || n === "audio") {
          const url = inner.trim() || attrsOf(attrs ?? "").src || "";
          return /^https?:\/\//.test(url) ? `<p><a href="${escapeAttr(url)}">${escapeAttr(url)}</a></p>` : "";
        }
        return inner;
      },
    );
    if (out === before) break;
  }
  // Self-closing and single shortcodes.
  out = out.replace(
    /\[\[([^\]]*)\]\]|\[([a-zA-Z][\w-]*)(\s[^\]]*?)?\s*\/?\]/g,
    (match: string, escaped: string | undefined, name: string, attrs: string | undefined) => {
      if (escaped !== undefined) return `[${escaped}]`;
      const n = name.toLowerCase();
      if (!KNOWN.has(n) && !/=/.test(attrs ?? "")) return match;
      found.add(n);
      if (n === "gallery") {
        const ids = (attrsOf(attrs ?? "").ids ?? "")
          .split(",")
          .map((id) => Number(id.trim()))
          .filter((id) => Number.isInteger(id) && id > 0);
        return ids.length ? rewriter.gallery(ids) : "";
      }
      if (n === "video" || n === "audio" || n === "embed") {
        const a = attrsOf(attrs ?? "");
        const url = a.src ?? a.mp4 ?? a.mp3 ?? a.url ?? "";
        return /^https?:\/\//.test(url) ? `<p><a href="${escapeAttr(url)}">${escapeAttr(url)}</a></p>` : "";
      }
      return "";
    },
  );
  // A closing tag left without its opening (broken markup): removed.
  return out.replace(/\[\/([a-zA-Z][\w-]*)\]/g, (match, name: string) =>
    KNOWN.has(name.toLowerCase()) || found.has(name.toLowerCase()) ? "" : match,
  );
}

/** The article body a WordPress body becomes, and what could not be carried over. */
export function convertBody(content: string, rewriter: Rewriter): { html: string; problems: BodyProblems } {
  const problems: BodyProblems = { shortcodes: new Set(), picturesKept: [], picturesWithoutAlt: [] };
  // Gutenberg's block comments go (a dynamic block such as <!-- wp:latest-posts /--> has no content here).
  let html = content.replace(/<!--\s*\/?wp:[\s\S]*?-->/g, "");
  html = stripShortcodes(html, rewriter, problems.shortcodes);
  html = autop(html);
  // Pictures and links through the rewriter (every tag and attribute kept for the sanitiser's own pass).
  html = sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: {
      img: (tagName, attribs) => {
        const src = attribs.src ?? "";
        const moved = src ? rewriter.picture(src) : null;
        if (!moved) {
          if (src) problems.picturesKept.push(src);
          return { tagName, attribs };
        }
        const alt = (attribs.alt ?? "").trim() || moved.alt;
        if (!alt) problems.picturesWithoutAlt.push(src);
        const out: Record<string, string> = { src: moved.src, alt };
        if (moved.width && moved.height) Object.assign(out, { width: String(moved.width), height: String(moved.height) });
        return { tagName, attribs: out };
      },
      a: (tagName, attribs) => {
        const href = attribs.href ? rewriter.link(attribs.href) : null;
        return { tagName, attribs: href ? { ...attribs, href } : attribs };
      },
    },
  });
  return { html: sanitizeArticleHtml(html), problems };
}

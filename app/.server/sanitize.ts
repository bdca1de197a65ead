/**
 * The allowlist for article bodies (sanitize-html). Applied when an article
 * is saved and again when it is rendered. Only the markup the editor makes
 * survives: headings, paragraphs, emphasis, lists, links, block quotes.
 */
import sanitizeHtml from "sanitize-html";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "h2", "h3", "h4", "strong", "b", "em", "i", "u", "s", "ul", "ol", "li", "a", "blockquote", "hr", "code", "pre"],
  allowedAttributes: { a: ["href", "title", "rel", "target"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Content of these is dropped entirely, not turned into text.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "iframe", "object", "embed", "svg", "math", "template", "xmp", "noembed", "noframes", "plaintext"],
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
  },
  exclusiveFilter: (frame) => frame.tag === "a" && !frame.attribs.href && !frame.text.trim(),
};

export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
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

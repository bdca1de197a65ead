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
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, " ").trim();
}

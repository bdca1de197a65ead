/**
 * An article's short texts, with one fallback rule: what staff wrote wins,
 * otherwise the start of the body (`shortDescription(articleText(html))`).
 *
 * - card text (article cards): the summary, else the body's start;
 * - description (meta description, og/twitter description, JSON-LD): the SEO
 *   description, else the summary, else the body's start, else the title;
 * - feed text (RSS): the summary, else the body's first 400 characters.
 */
import { shortDescription } from "~/lib/site";
import { articleText } from "./sanitize";

/** Characters of text a card shows when it is taken from the body. */
export const CARD_TEXT_MAX = 180;
const FEED_TEXT_MAX = 400;

/** Plain text of the start of a body cut anywhere (a half tag or entity at the end is dropped). */
export function excerptText(html: string): string {
  return articleText(html.replace(/<[^>]*$/, "").replace(/&[#a-z0-9]*$/i, ""));
}

export function cardSummary(a: { summary: string; excerpt: string }): string {
  return a.summary.trim() || shortDescription(excerptText(a.excerpt), CARD_TEXT_MAX);
}

/** `html` is the sanitised body. */
export function articleDescription(a: { seo_description: string; summary: string; title: string }, html: string): string {
  return a.seo_description.trim() || a.summary.trim() || shortDescription(articleText(html) || a.title);
}

export function feedText(a: { summary: string; copy: string }): string {
  const summary = a.summary.trim();
  if (summary) return summary;
  const text = articleText(a.copy);
  return text.length > FEED_TEXT_MAX ? `${text.slice(0, FEED_TEXT_MAX - 3).trimEnd()}…` : text;
}

/** The <title>/og:title of a post: the SEO title when set. */
export function articleSeoTitle(a: { seo_title: string; title: string }): string {
  return a.seo_title.trim() || a.title;
}

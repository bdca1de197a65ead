import { FIRM } from "~/config/firm";
import { pageMeta } from "~/lib/site";
import { DEFAULT_SOCIAL_IMAGE, SOCIAL_IMAGE_HEIGHT, SOCIAL_IMAGE_WIDTH } from "~/lib/social";
import type { JsonLd } from "~/lib/structured-data";

type Match = { id: string; loaderData?: unknown } | undefined;

/** The public site's base URL, from the layout loader's data. */
export function siteUrlOf(matches: readonly Match[]): string | undefined {
  const layout = matches.find((m) => m?.id === "routes/public/layout");
  return (layout?.loaderData as { siteUrl?: string } | undefined)?.siteUrl;
}

export const FEED_TITLE = `News & Insights | ${FIRM.name}`;

export type PublicMetaOptions = {
  title: string;
  description: string;
  path: string;
  noindex?: boolean;
  /** og:type: "website" unless the page is an article or a person's profile. */
  type?: "website" | "article" | "profile";
  /** The 1200×630 link-preview picture (a site path) and its text; the site default otherwise. */
  image?: { path: string; alt: string };
  /** schema.org JSON-LD blocks, rendered in the head. */
  jsonLd?: readonly JsonLd[];
};

/**
 * `<title>`, description, canonical URL, Open Graph and Twitter card tags,
 * the RSS link and JSON-LD of a public page. URLs are absolute (PUBLIC_URL).
 */
export function publicMeta(matches: readonly Match[], options: PublicMetaOptions) {
  const title = options.title === FIRM.name ? FIRM.name : `${options.title} | ${FIRM.name}`;
  const siteUrl = siteUrlOf(matches);
  const base = (siteUrl ?? "").replace(/\/+$/, "");
  const tags: Array<Record<string, unknown>> = pageMeta({ title, description: options.description, siteUrl, path: options.path }).filter(
    (tag) => tag.property !== "og:type",
  );
  const image = options.image ?? { path: DEFAULT_SOCIAL_IMAGE, alt: `${FIRM.name}, Toronto: insurance defence, construction disputes and cyber incident response` };
  const imageUrl = `${base}${image.path}`;
  tags.push(
    { property: "og:type", content: options.type ?? "website" },
    { property: "og:site_name", content: FIRM.name },
    { property: "og:locale", content: "en_CA" },
    { property: "og:image", content: imageUrl },
    { property: "og:image:width", content: String(SOCIAL_IMAGE_WIDTH) },
    { property: "og:image:height", content: String(SOCIAL_IMAGE_HEIGHT) },
    { property: "og:image:type", content: "image/jpeg" },
    { property: "og:image:alt", content: image.alt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: options.description },
    { name: "twitter:image", content: imageUrl },
    { name: "twitter:image:alt", content: image.alt },
    { tagName: "link", rel: "alternate", type: "application/rss+xml", href: `${base}/insights/feed.xml`, title: FEED_TITLE },
  );
  if (options.noindex) tags.push({ name: "robots", content: "noindex" });
  for (const block of options.jsonLd ?? []) tags.push({ "script:ld+json": block });
  return tags;
}

/** The meta of a page reached only by a personal link (confirm, change or cancel): a public page's, kept out of search engines. */
export function personalLinkMeta(matches: readonly Match[], options: PublicMetaOptions) {
  return [...publicMeta(matches, options), { name: "robots", content: "noindex" }];
}

import { FIRM } from "~/config/firm";
import { pageMeta } from "~/lib/site";

type Match = { id: string; data?: unknown } | undefined;

/** The public site's base URL, from the layout loader's data. */
export function siteUrlOf(matches: readonly Match[]): string | undefined {
  const layout = matches.find((m) => m?.id === "routes/public/layout");
  return (layout?.data as { siteUrl?: string } | undefined)?.siteUrl;
}

/** `<title>`, description and canonical URL of a public page. */
export function publicMeta(matches: readonly Match[], options: { title: string; description: string; path: string; noindex?: boolean }) {
  const tags: Array<Record<string, string>> = pageMeta({
    title: options.title === FIRM.name ? FIRM.name : `${options.title} | ${FIRM.name}`,
    description: options.description,
    siteUrl: siteUrlOf(matches),
    path: options.path,
  });
  if (options.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

import { latestArticlesForFeed } from "~/.server/db/seo";
import { feedText } from "~/.server/content/article-text";
import { absoluteUrl } from "~/.server/http/site-url";
import { FIRM } from "~/config/firm";
import { xmlEscape } from "~/lib/xml";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. */
export const handle = { pageCache: { params: [] } } satisfies RouteHandle;

/** /insights/feed.xml: RSS 2.0 of the latest 20 articles. */
export async function loader() {
  const items = await latestArticlesForFeed(20);
  const self = absoluteUrl("/insights/feed.xml");
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${xmlEscape(`News & Insights | ${FIRM.name}`)}</title>
<link>${xmlEscape(absoluteUrl("/insights"))}</link>
<atom:link href="${xmlEscape(self)}" rel="self" type="application/rss+xml"/>
<description>${xmlEscape(`Decisions, developments and events from ${FIRM.name}.`)}</description>
<language>en-ca</language>
${items[0] ? `<lastBuildDate>${new Date(items[0].updated_at).toUTCString()}</lastBuildDate>` : ""}
${items
  .map((a) => {
    const link = absoluteUrl(`/post/${encodeURIComponent(a.slug)}`);
    return `<item><title>${xmlEscape(a.title)}</title><link>${xmlEscape(link)}</link><guid isPermaLink="true">${xmlEscape(link)}</guid><pubDate>${new Date(a.published_at ?? a.created_at).toUTCString()}</pubDate><category>${xmlEscape(a.category)}</category><description>${xmlEscape(feedText(a))}</description></item>`;
  })
  .join("\n")}
</channel>
</rss>
`;
  return new Response(body, { headers: { "Content-Type": "application/rss+xml; charset=utf-8" } });
}

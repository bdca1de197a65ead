import { listPublicEventSlugs } from "~/.server/db/events";
import { sitemapEntries } from "~/.server/db/seo";
import { absoluteUrl } from "~/.server/http/site-url";
import { xmlEscape } from "~/lib/xml";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps this page (lib/route-handle.ts); it reads no query parameter. */
export const handle = { pageCache: { params: [] } } satisfies RouteHandle;

/** /sitemap.xml: every public page, lawyer, post and event, with last-modified dates. */
export async function loader() {
  const [{ members, posts, latest }, events] = await Promise.all([sitemapEntries(), listPublicEventSlugs()]);
  const newest = (...dates: (Date | null)[]) => {
    const times = dates.filter((d): d is Date => !!d).map((d) => new Date(d).getTime());
    return times.length ? new Date(Math.max(...times)) : null;
  };
  const pages: { path: string; lastmod: Date | null }[] = [
    { path: "/", lastmod: newest(latest.articles, latest.hours) },
    { path: "/team", lastmod: newest(latest.team, latest.headers) },
    { path: "/insights", lastmod: newest(latest.articles, latest.headers) },
    { path: "/insurance", lastmod: newest(latest.team, latest.articles, latest.headers) },
    { path: "/construction", lastmod: newest(latest.team, latest.articles, latest.headers) },
    { path: "/cyber", lastmod: newest(latest.team, latest.articles, latest.headers) },
    { path: "/events", lastmod: newest(...events.map((e) => e.updated_at)) },
    { path: "/disclaimer", lastmod: null },
    { path: "/accessibility", lastmod: null },
    { path: "/copyright", lastmod: null },
    { path: "/contact", lastmod: null },
    { path: "/privacy", lastmod: null },
    ...members.map((m) => ({ path: `/lawyer/${encodeURIComponent(m.slug)}`, lastmod: m.updated_at })),
    ...posts.map((p) => ({ path: `/post/${encodeURIComponent(p.slug)}`, lastmod: p.updated_at })),
    ...events.map((e) => ({ path: `/event/${encodeURIComponent(e.slug)}`, lastmod: e.updated_at })),
  ];
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    pages
      .map(
        (p) =>
          `<url><loc>${xmlEscape(absoluteUrl(p.path))}</loc>${p.lastmod ? `<lastmod>${new Date(p.lastmod).toISOString()}</lastmod>` : ""}</url>`,
      )
      .join("\n") +
    `\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}

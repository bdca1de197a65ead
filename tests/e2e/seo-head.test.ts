/**
 * Search and sharing as a crawler sees it: the server's HTML (no JavaScript)
 * carries the JSON-LD, Open Graph and Twitter tags and the RSS link; the
 * shared picture URLs answer 1200×630 JPEGs; old URLs answer 301.
 */
import sharp from "sharp";
import { describe, expect, it } from "./fixture";

const meta = (html: string, attr: "property" | "name", key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/[:.]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, "&");

function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]) as Record<string, unknown>,
  );
}

describe("the server's HTML head", () => {
  it.for<[string, string[]]>([
    ["/", ["LegalService"]],
    ["/lawyer/Eleanor-Whitcombe", ["Person", "BreadcrumbList"]],
    ["/post/Firm-Expands-Cyber-Incident-Response-Team", ["NewsArticle", "BreadcrumbList"]],
    ["/cyber", ["BreadcrumbList"]],
    ["/insights", []],
  ])("%s: JSON-LD %j, link-preview tags and the feed link, before any JavaScript", async ([path, types], { base }) => {
    const res = await fetch(base + path);
    expect(res.status).toBe(200);
    const html = await res.text();
    const head = html.slice(0, html.indexOf("</head>"));
    expect(jsonLd(head).map((b) => b["@type"])).toEqual(types);
    expect(meta(head, "property", "og:url")).toBe(base + path);
    expect(meta(head, "name", "twitter:card")).toBe("summary_large_image");
    expect(head).toMatch(
      /<link rel="alternate" type="application\/rss\+xml" href="[^"]+\/insights\/feed\.xml" title="News &amp; Insights \| Harrow Kline LLP"/,
    );
    // The picture named in the head is served, at 1200×630.
    const image = meta(head, "property", "og:image")!;
    expect(image.startsWith(base)).toBe(true);
    const picture = await fetch(image);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/jpeg");
    const size = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    expect([size.width, size.height]).toEqual([1200, 630]);
  });
});

describe("old URLs", () => {
  it.for([
    ["/lawyer/eleanor-whitcombe", "/lawyer/Eleanor-Whitcombe"],
    ["/lawyer/Eleanor%20Whitcombe", "/lawyer/Eleanor-Whitcombe"],
    ["/post/firm-expands-cyber-incident-response-team", "/post/Firm-Expands-Cyber-Incident-Response-Team"],
  ])("%s answers 301 to %s", async ([from, to], { base }) => {
    const res = await fetch(base + from, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get("location")!, base).pathname).toBe(to);
  });

  it("an unknown lawyer is still the spec's 404", async ({ base }) => {
    const res = await fetch(base + "/lawyer/nobody-at-all", { redirect: "manual" });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Error. Could not retrieve lawyer.");
  });
});

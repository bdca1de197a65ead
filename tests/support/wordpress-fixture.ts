/**
 * A WordPress site for the import tests: an HTTP server on 127.0.0.1 that
 * serves the old site's uploads (pictures made with sharp, a PDF, one
 * picture missing), and exports of it written the way WordPress writes them
 * (WXR 1.2 or 1.1): posts, pages, a draft, a scheduled and a private post,
 * categories (mapped, news and unknown), a tag, authors (one on the team by
 * e-mail, one not), attachments with alt text, Gutenberg blocks, shortcodes,
 * links between posts, and a picture in a body that is not an attachment.
 * `newer` is the same site later: one post retitled and rewritten.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

export type OldSite = { origin: string; requests: string[]; close(): Promise<void> };

/** The team member (demo content) the author "eleanor" matches by e-mail. */
export const MATCHED_EMAIL = "ewhitcombe@harrowkline.example";

/** `delayMs`: each file answers this late (a slow old site: an import then shows its progress for a while). */
export async function startOldSite(options: { delayMs?: number } = {}): Promise<OldSite> {
  const photo = await sharp({ create: { width: 640, height: 400, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();
  const inline = await sharp({ create: { width: 200, height: 120, channels: 3, background: "#993333" } })
    .png()
    .toBuffer();
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
  const files: Record<string, [string, Buffer]> = {
    "/wp-content/uploads/2021/03/flood-photo.jpg": ["image/jpeg", photo],
    "/wp-content/uploads/2021/03/flood-photo-300x188.jpg": ["image/jpeg", photo],
    "/wp-content/uploads/2021/03/coverage-brief.pdf": ["application/pdf", pdf],
    "/wp-content/uploads/2021/04/chart.png": ["image/png", inline],
  };
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const file = files[req.url ?? ""];
    if (!file) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    const answer = () => res.writeHead(200, { "Content-Type": file[0], "Content-Length": file[1].length }).end(file[1]);
    if (options.delayMs) setTimeout(answer, options.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const cdata = (text: string) => `<![CDATA[${text.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;

type Item = {
  id: number;
  type: "post" | "page" | "attachment";
  status: string;
  title: string;
  slug: string;
  link: string;
  date: string;
  dateGmt: string;
  creator: string;
  content?: string;
  excerpt?: string;
  categories?: [string, string][];
  tags?: [string, string][];
  attachmentUrl?: string;
  meta?: Record<string, string>;
  parent?: number;
};

function itemXml(origin: string, i: Item): string {
  const terms = [
    ...(i.categories ?? []).map(([slug, name]) => `<category domain="category" nicename="${slug}">${cdata(name)}</category>`),
    ...(i.tags ?? []).map(([slug, name]) => `<category domain="post_tag" nicename="${slug}">${cdata(name)}</category>`),
  ].join("\n");
  const meta = Object.entries(i.meta ?? {})
    .map(([k, v]) => `<wp:postmeta><wp:meta_key>${cdata(k)}</wp:meta_key><wp:meta_value>${cdata(v)}</wp:meta_value></wp:postmeta>`)
    .join("\n");
  return `<item>
  <title>${cdata(i.title)}</title>
  <link>${origin}${i.link}</link>
  <pubDate>Thu, 04 Mar 2021 14:30:00 +0000</pubDate>
  <dc:creator>${cdata(i.creator)}</dc:creator>
  <guid isPermaLink="false">${origin}/?${i.type === "page" ? "page_id" : i.type === "attachment" ? "attachment_id" : "p"}=${i.id}</guid>
  <description></description>
  <content:encoded>${cdata(i.content ?? "")}</content:encoded>
  <excerpt:encoded>${cdata(i.excerpt ?? "")}</excerpt:encoded>
  <wp:post_id>${i.id}</wp:post_id>
  <wp:post_date>${cdata(i.date)}</wp:post_date>
  <wp:post_date_gmt>${cdata(i.dateGmt)}</wp:post_date_gmt>
  <wp:comment_status>${cdata("open")}</wp:comment_status>
  <wp:post_name>${cdata(i.slug)}</wp:post_name>
  <wp:status>${cdata(i.status)}</wp:status>
  <wp:post_parent>${i.parent ?? 0}</wp:post_parent>
  <wp:menu_order>0</wp:menu_order>
  <wp:post_type>${cdata(i.type)}</wp:post_type>
  <wp:post_password>${cdata("")}</wp:post_password>
  <wp:is_sticky>0</wp:is_sticky>
  ${i.attachmentUrl ? `<wp:attachment_url>${cdata(origin + i.attachmentUrl)}</wp:attachment_url>` : ""}
  ${terms}
  ${meta}
  <wp:comment>
    <wp:comment_id>1</wp:comment_id>
    <wp:comment_author>${cdata("A commenter")}</wp:comment_author>
    <wp:comment_content>${cdata("<title>not an item title</title>")}</wp:comment_content>
  </wp:comment>
</item>`;
}

/** The old site's items; `newer`: the same site later, with post 10 retitled and rewritten. */
export function fixtureItems(origin: string, newer = false): Item[] {
  const t10 = newer ? "Coverage after the spring flood" : "Coverage after the flood";
  return [
    {
      id: 100,
      type: "attachment",
      status: "inherit",
      title: "flood-photo",
      slug: "flood-photo",
      link: "/2021/03/coverage-after-the-flood/flood-photo/",
      date: "2021-03-04 09:00:00",
      dateGmt: "2021-03-04 14:00:00",
      creator: "eleanor",
      attachmentUrl: "/wp-content/uploads/2021/03/flood-photo.jpg",
      meta: { _wp_attachment_image_alt: "A flooded basement after the storm" },
      parent: 10,
    },
    {
      id: 101,
      type: "attachment",
      status: "inherit",
      title: "Coverage brief",
      slug: "coverage-brief",
      link: "/?attachment_id=101",
      date: "2021-03-04 09:00:00",
      dateGmt: "2021-03-04 14:00:00",
      creator: "eleanor",
      attachmentUrl: "/wp-content/uploads/2021/03/coverage-brief.pdf",
    },
    {
      id: 102,
      type: "attachment",
      status: "inherit",
      title: "Lost picture",
      slug: "lost-picture",
      link: "/?attachment_id=102",
      date: "2021-03-04 09:00:00",
      dateGmt: "2021-03-04 14:00:00",
      creator: "eleanor",
      attachmentUrl: "/wp-content/uploads/2020/01/lost-picture.jpg",
    },
    {
      id: 10,
      type: "post",
      status: "publish",
      title: t10,
      slug: "coverage-after-the-flood",
      link: "/2021/03/coverage-after-the-flood/",
      date: "2021-03-04 09:30:00",
      dateGmt: "2021-03-04 14:30:00",
      creator: "eleanor",
      excerpt: "What a &ldquo;flood&rdquo; exclusion means for basement claims.",
      categories: [["insurance-defence", "Insurance Defence"]],
      tags: [["flooding", "Flooding"]],
      meta: { _thumbnail_id: "100" },
      content: `<!-- wp:paragraph -->
<p>${newer ? "Updated: the courts have now ruled." : "The first decisions are in."} See <a href="${origin}/2021/04/ransomware-the-first-48-hours/">our ransomware note</a> and <a href="${origin}/wp-content/uploads/2021/03/coverage-brief.pdf">the brief (PDF)</a>.</p>
<!-- /wp:paragraph -->

<!-- wp:image {"id":100,"sizeSlug":"medium"} -->
<figure class="wp-block-image size-medium"><img src="${origin}/wp-content/uploads/2021/03/flood-photo-300x188.jpg" alt="" class="wp-image-100"/></figure>
<!-- /wp:image -->

<!-- wp:latest-posts /-->

[caption id="attachment_100" align="alignnone" width="300"]<img src="${origin}/wp-content/uploads/2021/03/flood-photo.jpg" alt="Water in a basement" width="300" height="188" /> The basement in March[/caption]`,
    },
    {
      id: 11,
      type: "post",
      status: "publish",
      title: "Ransomware: the first 48 hours",
      slug: "ransomware-the-first-48-hours",
      link: "/2021/04/ransomware-the-first-48-hours/",
      date: "2021-04-10 08:00:00",
      dateGmt: "2021-04-10 12:00:00",
      creator: "bob",
      categories: [
        ["cyber-security", "Cyber Security"],
        ["firm-news", "Firm News"],
      ],
      content: `Call counsel first. The policy [sic] says so.

Then read <a href="${origin}/?p=10">our flood note</a>.
[contact-form-7 id="5" title="Contact"]

<img src="${origin}/wp-content/uploads/2021/04/chart.png" alt="Hours to contain an attack" />

<img src="${origin}/wp-content/uploads/2020/01/lost-picture.jpg" alt="A picture the old site lost" />`,
    },
    {
      id: 12,
      type: "post",
      status: "draft",
      title: "Draft thoughts on liens",
      slug: "",
      link: "/?p=12",
      date: "2021-05-01 10:00:00",
      dateGmt: "0000-00-00 00:00:00",
      creator: "eleanor",
      categories: [["construction-law", "Construction Law"]],
      content: "<p>Not ready.</p>",
    },
    {
      id: 13,
      type: "post",
      status: "future",
      title: "Seminar on coverage in 2031",
      slug: "seminar-on-coverage-in-2031",
      link: "/?p=13",
      date: "2031-01-15 09:00:00",
      dateGmt: "2031-01-15 14:00:00",
      creator: "eleanor",
      categories: [["events", "Events"]],
      content: "<p>Join us.</p>",
    },
    {
      id: 14,
      type: "post",
      status: "private",
      title: "Private memo",
      slug: "private-memo",
      link: "/?p=14",
      date: "2021-06-01 10:00:00",
      dateGmt: "2021-06-01 14:00:00",
      creator: "eleanor",
      content: "<p>Partners only.</p>",
    },
    {
      id: 15,
      type: "post",
      status: "publish",
      title: "Odds and ends",
      slug: "odds-and-ends",
      link: "/2021/07/odds-and-ends/",
      date: "2021-07-01 10:00:00",
      dateGmt: "2021-07-01 14:00:00",
      creator: "eleanor",
      categories: [["miscellany", "Miscellany"]],
      content: "<p>Short items.</p>",
    },
    {
      id: 20,
      type: "page",
      status: "publish",
      title: "About the firm",
      slug: "about-the-firm",
      link: "/about-the-firm/",
      date: "2020-01-01 10:00:00",
      dateGmt: "2020-01-01 15:00:00",
      creator: "eleanor",
      content: "<p>Founded in 1990.</p>",
    },
    {
      id: 21,
      type: "page",
      status: "publish",
      title: "Contact us",
      slug: "contact",
      link: "/contact/",
      date: "2020-01-01 10:00:00",
      dateGmt: "2020-01-01 15:00:00",
      creator: "eleanor",
      content: "<p>Call us.</p>",
    },
  ];
}

/** The export of the old site at `origin`, as WordPress writes WXR `version` (1.2 or 1.1). */
export function wxrFixture(origin: string, options: { version?: "1.1" | "1.2"; newer?: boolean } = {}): string {
  const v = options.version ?? "1.2";
  return `<?xml version="1.0" encoding="UTF-8" ?>
<!-- This is a WordPress eXtended RSS file generated by WordPress as an export of your site. -->
<rss version="2.0"
  xmlns:excerpt="http://wordpress.org/export/${v}/excerpt/"
  xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:wfw="http://wellformedweb.org/CommentAPI/"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:wp="http://wordpress.org/export/${v}/">
<channel>
  <title>Old Firm Site</title>
  <link>${origin}</link>
  <description>Just another WordPress site</description>
  <language>en-CA</language>
  <wp:wxr_version>${v}</wp:wxr_version>
  <wp:base_site_url>${origin}</wp:base_site_url>
  <wp:base_blog_url>${origin}</wp:base_blog_url>
  <wp:author><wp:author_id>1</wp:author_id><wp:author_login>${cdata("eleanor")}</wp:author_login><wp:author_email>${cdata(MATCHED_EMAIL)}</wp:author_email><wp:author_display_name>${cdata("Eleanor W.")}</wp:author_display_name><wp:author_first_name>${cdata("Eleanor")}</wp:author_first_name><wp:author_last_name>${cdata("Whitcombe")}</wp:author_last_name></wp:author>
  <wp:author><wp:author_id>2</wp:author_id><wp:author_login>${cdata("bob")}</wp:author_login><wp:author_email>${cdata("bob@elsewhere.example")}</wp:author_email><wp:author_display_name>${cdata("Bob Outsider")}</wp:author_display_name><wp:author_first_name>${cdata("Bob")}</wp:author_first_name><wp:author_last_name>${cdata("Outsider")}</wp:author_last_name></wp:author>
  <wp:category><wp:term_id>2</wp:term_id><wp:category_nicename>${cdata("insurance-defence")}</wp:category_nicename><wp:category_parent>${cdata("")}</wp:category_parent><wp:cat_name>${cdata("Insurance Defence")}</wp:cat_name></wp:category>
  <wp:category><wp:term_id>3</wp:term_id><wp:category_nicename>${cdata("cyber-security")}</wp:category_nicename><wp:category_parent>${cdata("")}</wp:category_parent><wp:cat_name>${cdata("Cyber Security")}</wp:cat_name></wp:category>
  <wp:category><wp:term_id>4</wp:term_id><wp:category_nicename>${cdata("firm-news")}</wp:category_nicename><wp:category_parent>${cdata("")}</wp:category_parent><wp:cat_name>${cdata("Firm News")}</wp:cat_name></wp:category>
  <wp:category><wp:term_id>5</wp:term_id><wp:category_nicename>${cdata("miscellany")}</wp:category_nicename><wp:category_parent>${cdata("")}</wp:category_parent><wp:cat_name>${cdata("Miscellany")}</wp:cat_name></wp:category>
  <wp:category><wp:term_id>6</wp:term_id><wp:category_nicename>${cdata("construction-law")}</wp:category_nicename><wp:category_parent>${cdata("")}</wp:category_parent><wp:cat_name>${cdata("Construction Law")}</wp:cat_name></wp:category>
  <wp:category><wp:term_id>7</wp:term_id><wp:category_nicename>${cdata("events")}</wp:category_nicename><wp:category_parent>${cdata("")}</wp:category_parent><wp:cat_name>${cdata("Events")}</wp:cat_name></wp:category>
  <wp:tag><wp:term_id>8</wp:term_id><wp:tag_slug>${cdata("flooding")}</wp:tag_slug><wp:tag_name>${cdata("Flooding")}</wp:tag_name></wp:tag>
  <generator>https://wordpress.org/?v=6.5</generator>
${fixtureItems(origin, options.newer)
  .map((i) => itemXml(origin, i))
  .join("\n")}
</channel>
</rss>
`;
}

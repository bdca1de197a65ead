import { describe, expect, it, beforeAll } from "vitest";
import { seedDemoContent } from "~/.server/db/seed";
import { createArticle } from "~/.server/db/articles";
import { loader as sitemap } from "~/routes/seo/sitemap";
import { loader as robots } from "~/routes/seo/robots";
import { loader as feed } from "~/routes/seo/feed";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { FIXED_PAGES } from "../support/site-pages";

setUpTestDatabase();
beforeAll(async () => {
  await seedDemoContent();
  for (let i = 0; i < 5; i++) {
    await createArticle(
      {
        title: `Older ${i}`,
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: "",
        date: "d",
        created_at: new Date(2000, 0, i + 1),
      },
      TEST_ACTOR,
    );
  }
  await createArticle(
    {
      title: "Fish & Chips <Law>",
      img: "",
      category: "events",
      news: false,
      priority: false,
      copy: "<p>Tom &amp; Jerry <script>x</script></p>",
      date: "d",
    },
    TEST_ACTOR,
  );
});

describe("sitemap, robots and feed", () => {
  it("lists every public page, lawyer, post and event with last-modified dates", async () => {
    const res = await sitemap();
    expect(res.headers.get("content-type")).toMatch(/application\/xml/);
    const xml = await res.text();
    for (const path of FIXED_PAGES) {
      expect(xml).toContain(`<loc>http://localhost:3000${path}</loc>`);
    }
    expect(xml).toContain("<loc>http://localhost:3000/lawyer/Eleanor-Whitcombe</loc>");
    expect(xml).toContain("<loc>http://localhost:3000/post/Fish-Chips-Law</loc>");
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T/);
    expect(xml).toContain("<loc>http://localhost:3000/event/Delay-Claims-Breakfast-Seminar</loc>");
    // The 12 fixed pages, 10 lawyers, 22 posts and the 3 demo events.
    expect((xml.match(/<url>/g) ?? []).length).toBe(FIXED_PAGES.length + 10 + 22 + 3);
  });

  it("keeps crawlers out of the dashboard and points at the sitemap", async () => {
    const text = await robots().text();
    expect(text).toMatch(/^Disallow: \/dashboard$/m);
    expect(text).toMatch(/^Sitemap: http:\/\/localhost:3000\/sitemap\.xml$/m);
  });

  it("is an RSS 2.0 feed of the latest 20 articles, escaped", async () => {
    const res = await feed();
    expect(res.headers.get("content-type")).toMatch(/application\/rss\+xml/);
    const xml = await res.text();
    expect(xml).toContain('<rss version="2.0"');
    expect((xml.match(/<item>/g) ?? []).length).toBe(20);
    expect(xml).toContain("<title>Fish &amp; Chips &lt;Law&gt;</title>");
    expect(xml).not.toContain("<script>");
    expect(xml).toContain("<description>Tom &amp; Jerry</description>");
  });
});

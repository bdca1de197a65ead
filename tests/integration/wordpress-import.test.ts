/**
 * The WordPress importer (issue 46) on PGlite (or PostgreSQL with
 * TEST_DATABASE_URL) and the disk, against an old site served by a local
 * HTTP server (tests/support/wordpress-fixture.ts): a dry run writes nothing
 * and reports; an import makes articles in the right states with their
 * authors, categories and pictures, rewrites every body, and makes one-hop
 * redirects; a second import of the same file changes nothing; a newer
 * export updates what changed; WXR 1.1 reads like 1.2; a broken file is
 * refused in words. The dashboard's runs as a job of the job queue, with the
 * export in storage: wordpress-import-job.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { articleAuthors, articles, auditLog, redirects, team, wordpressFiles } from "~/.server/db/schema";
import { seedDemoContent } from "~/.server/db/seed";
import { getStorage } from "~/.server/storage/storage";
import { importWordPress, type ImportOptions } from "~/.server/wordpress/import";
import { patternsOfConfig } from "~/lib/route-patterns";
import routes from "~/routes";
import { setUpTestDatabase, TEST_ACTOR } from "../support/database";
import { MATCHED_EMAIL, startOldSite, wxrFixture, type OldSite } from "../support/wordpress-fixture";

setUpTestDatabase();

let site: OldSite;
let dir: string;
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};
const run = (file: string, extra: Partial<ImportOptions> = {}) =>
  importWordPress({ file, dryRun: false, pages: "articles", actor: TEST_ACTOR, sitePatterns: patternsOfConfig(routes), ...extra });

async function snapshot() {
  const rows = await db().select().from(articles).orderBy(articles.id);
  const rules = await db().select().from(redirects).orderBy(redirects.id);
  return {
    articles: rows.map((a) => [a.id, a.slug, a.title, a.status, a.version, a.copy, a.img, a.category, a.news, a.byline]),
    redirects: rules.map((r) => [r.source, r.query, r.target, r.status]),
    files: (await db().select({ n: count() }).from(wordpressFiles))[0].n,
  };
}

beforeAll(async () => {
  await seedDemoContent();
  site = await startOldSite();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wxr-"));
}, 120_000);

afterAll(async () => {
  await site?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("WordPress import", () => {
  it("a dry run writes nothing and reports counts, the mapping, unmatched authors, every redirect and the problems", async () => {
    const before = await snapshot();
    const report = await run(write("dry.xml", wxrFixture(site.origin)), { dryRun: true });
    expect(await snapshot()).toEqual(before);
    expect(site.requests).toEqual([]);
    expect(report.counts).toMatchObject({
      posts: 6,
      pages: 2,
      attachments: 3,
      published: 5,
      drafts: 1,
      scheduled: 1,
      private: 1,
      created: 8,
    });
    expect(report.categories).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ slug: "insurance-defence", mappedTo: "insurance", known: true }),
        expect.objectContaining({ slug: "firm-news", mappedTo: "news", known: true }),
        expect.objectContaining({ slug: "miscellany", mappedTo: "none", known: false }),
      ]),
    );
    expect(report.authors.find((a) => a.login === "eleanor")?.member?.name).toBe("Eleanor Whitcombe");
    expect(report.authors.find((a) => a.login === "bob")?.member).toBeNull();
    const from = report.redirects.map((r) => r.from);
    expect(from).toEqual(
      expect.arrayContaining([
        "/2021/03/coverage-after-the-flood/",
        "/?p=10",
        "/?page_id=20",
        "/about-the-firm/",
        "/category/insurance-defence/",
        "/tag/flooding/",
        "/author/eleanor/",
        "/feed/",
        "/wp-content/uploads/2021/03/coverage-brief.pdf",
      ]),
    );
    // The old /contact/ page is one of this site's own addresses: no redirect, a problem instead.
    expect(from).not.toContain("/contact/");
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(/\/contact\/ is an address of this site's own pages/);
    expect(report.problems.some((p) => p.item === "category miscellany")).toBe(true);
    expect(report.problems.some((p) => p.item === "author bob")).toBe(true);
    // Drafts, the scheduled and the private post get no redirect (their addresses were never public).
    expect(from).not.toContain("/?p=12");
    expect(from).not.toContain("/?p=13");
    expect(from).not.toContain("/?p=14");
  });

  it("imports posts and pages with states, authors, categories, pictures and rewritten bodies, and one-hop redirects", async () => {
    const report = await run(write("first.xml", wxrFixture(site.origin)), { categoryMap: { miscellany: "construction" } });
    expect(report.counts).toMatchObject({ created: 8, updated: 0, filesDownloaded: 3, filesFailed: 1 });
    const rows = await db().select().from(articles);
    const byTitle = (t: string) => rows.find((a) => a.title === t)!;
    const flood = byTitle("Coverage after the flood");
    expect(flood.status).toBe("published");
    expect(flood.published_at?.toISOString()).toBe("2021-03-04T14:30:00.000Z");
    expect(flood.category).toBe("insurance");
    expect(flood.summary).toBe("What a “flood” exclusion means for basement claims.");
    expect(flood.img).toMatch(/^[0-9a-f-]+\.jpg$/);
    expect(byTitle("Odds and ends").category).toBe("construction");
    expect(byTitle("Draft thoughts on liens").status).toBe("draft");
    const scheduled = byTitle("Seminar on coverage in 2031");
    expect([scheduled.status, scheduled.category, scheduled.published_at?.toISOString()]).toEqual([
      "scheduled",
      "events",
      "2031-01-15T14:00:00.000Z",
    ]);
    expect(byTitle("Private memo").status).toBe("draft");
    const ransomware = byTitle("Ransomware: the first 48 hours");
    expect([ransomware.category, ransomware.news, ransomware.byline]).toEqual(["cyber", true, "Bob Outsider"]);
    // The matched author is a team member, the unmatched one text.
    const [eleanor] = await db().select().from(team).where(eq(team.email, MATCHED_EMAIL));
    const authors = await db().select().from(articleAuthors).where(eq(articleAuthors.article_id, flood.id));
    expect(authors.map((a) => a.member_id)).toEqual([eleanor.id]);
    expect(flood.byline).toBe("");
    // Bodies: no block comments, no shortcodes, links to the new addresses, pictures stored here with alt text.
    expect(flood.copy).not.toMatch(/wp:|\[caption|\[\/caption/);
    expect(flood.copy).toContain(`href="/post/${ransomware.slug}"`);
    expect(flood.copy).toMatch(/href="\/files\/[0-9a-f-]+\.pdf"/);
    expect(flood.copy).toMatch(/<img src="\/images\/articles\/body-[0-9a-f-]+\.jpg" alt="A flooded basement after the storm"/);
    expect(flood.copy).toMatch(/<img src="\/images\/articles\/body-[0-9a-f-]+\.jpg" alt="Water in a basement"/);
    expect(flood.copy).toContain("<em>The basement in March</em>");
    expect(ransomware.copy).toContain("[sic]");
    expect(ransomware.copy).not.toContain("contact-form-7");
    expect(ransomware.copy).toContain(`href="/post/${flood.slug}"`);
    expect(ransomware.copy).toMatch(/<p>Call counsel first\. The policy \[sic\] says so\.<\/p>/);
    expect(ransomware.copy).toMatch(/body-[0-9a-f-]+\.png" alt="Hours to contain an attack"/);
    // The picture the old site lost keeps its old address and is listed (the sanitiser keeps only pictures stored here).
    expect(report.problems.some((p) => /lost-picture\.jpg could not be downloaded \(the old site answered 404\)/.test(p.message))).toBe(
      true,
    );
    for (const a of rows) expect(a.copy).not.toContain(site.origin);
    // Every stored picture and file exists.
    const files = await db().select().from(wordpressFiles);
    for (const f of files.filter((f) => f.kind !== "featured")) {
      const key = f.url.replace(/^\/images\//, "").replace(/^\/files\//, "files/");
      expect(await getStorage().get(key), f.url).toBeDefined();
    }
    // Redirects: one hop, to the new pages.
    const rules = await db().select().from(redirects).where(eq(redirects.origin, "wordpress"));
    const target = (source: string, query = "") => rules.find((r) => r.source === source && r.query === query)?.target;
    expect(target("/2021/03/coverage-after-the-flood")).toBe(`/post/${flood.slug}`);
    expect(target("/", "p=10")).toBe(`/post/${flood.slug}`);
    expect(target("/", "page_id=20")).toBe(`/post/${byTitle("About the firm").slug}`);
    expect(target("/category/insurance-defence")).toBe("/insights?category=insurance");
    expect(target("/category/firm-news")).toBe("/insights?category=news");
    expect(target("/author/eleanor")).toBe(`/insights?author=${encodeURIComponent(eleanor.slug)}`);
    expect(target("/author/bob")).toBe("/insights");
    expect(target("/tag/flooding")).toBe("/search?q=Flooding");
    expect(target("/feed")).toBe("/insights/feed.xml");
    expect(target("/wp-content/uploads/2021/03/coverage-brief.pdf")).toMatch(/^\/files\/[0-9a-f-]+\.pdf$/);
    expect(target("/", "attachment_id=100")).toMatch(/^\/images\/articles\/body-/);
    for (const r of rules)
      expect(rules.some((other) => other.source === r.target.split("?")[0].toLowerCase() && other.query === "")).toBe(false);
    const audit = await db().select().from(auditLog).where(eq(auditLog.action, "import"));
    expect(audit.at(-1)?.item_label).toMatch(/WordPress import of .*: 8 articles created/);
  });

  it("a second import of the same file changes nothing and downloads nothing", async () => {
    const before = await snapshot();
    const requests = site.requests.length;
    const report = await run(write("again.xml", wxrFixture(site.origin)), { categoryMap: { miscellany: "construction" } });
    expect(report.counts).toMatchObject({ created: 0, updated: 0, unchanged: 8, redirectsWritten: 0 });
    expect(await snapshot()).toEqual(before);
    // Only the picture that failed before is asked for again.
    expect(site.requests.slice(requests).every((u) => u.includes("lost-picture"))).toBe(true);
  });

  it("a newer export updates what changed; the renamed post's old addresses go straight to its new one", async () => {
    const report = await run(write("newer.xml", wxrFixture(site.origin, { newer: true })), { categoryMap: { miscellany: "construction" } });
    // The retitled post, and the post that links to it (its link now names the new address).
    expect(report.counts).toMatchObject({ created: 0, updated: 2, unchanged: 6 });
    const [flood] = await db().select().from(articles).where(eq(articles.title, "Coverage after the spring flood"));
    expect(flood.copy).toContain("Updated: the courts have now ruled.");
    const [ransomware] = await db().select().from(articles).where(eq(articles.title, "Ransomware: the first 48 hours"));
    expect(ransomware.copy).toContain(`href="/post/${flood.slug}"`);
    const rules = await db().select().from(redirects);
    const target = (source: string, query = "") => rules.find((r) => r.source === source && r.query === query)?.target;
    expect(target("/2021/03/coverage-after-the-flood")).toBe(`/post/${flood.slug}`);
    expect(target("/post/coverage-after-the-flood")).toBe(`/post/${flood.slug}`);
  });

  it("an article edited here since the import is kept when a newer export changes it", async () => {
    const [flood] = await db().select().from(articles).where(eq(articles.title, "Coverage after the spring flood"));
    await db()
      .update(articles)
      .set({ version: flood.version + 1 })
      .where(eq(articles.id, flood.id));
    const report = await run(write("oldest.xml", wxrFixture(site.origin)), { categoryMap: { miscellany: "construction" } });
    expect(report.counts.keptLocalEdits).toBe(1);
    expect(report.problems.some((p) => /edited here since the last import/.test(p.message))).toBe(true);
    const [still] = await db().select().from(articles).where(eq(articles.id, flood.id));
    expect(still.title).toBe("Coverage after the spring flood");
  });

  it("reads WXR 1.1 as it reads 1.2", async () => {
    const a = await run(write("v11.xml", wxrFixture(site.origin, { version: "1.1" })), { dryRun: true });
    const b = await run(write("v12.xml", wxrFixture(site.origin, { version: "1.2" })), { dryRun: true });
    expect(a.wxrVersion).toBe("1.1");
    expect({ ...a.counts }).toEqual({ ...b.counts });
    expect(a.redirects).toEqual(b.redirects);
  });

  it("refuses a file that is not a WordPress export, in words", async () => {
    await expect(run(write("bad.xml", "<html><body>hello</body></html>"), { dryRun: true })).rejects.toThrow(/not a WordPress export/);
    await expect(run(write("broken.xml", '<rss version="2.0"><channel><item>'), { dryRun: true })).rejects.toThrow(
      /not (well-formed|a WordPress export)/,
    );
  });
});

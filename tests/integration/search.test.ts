/**
 * Site search (decision 0013) through the query module and the /search
 * loader, on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * ranking, stemming, prefixes, a typo, the kind filter, paging, highlighted
 * extracts that never carry markup, and odd input.
 */
import { testContext } from "../support/route-call";
import { beforeAll, describe, expect, it } from "vitest";
import { createArticle, deleteArticle, updateArticle } from "~/.server/db/articles";
import { updatePageHeader } from "~/.server/db/page-headers";
import { ARTICLE_CANDIDATES, highlightParts, searchSite, searchTerms, tsQueryText, type SearchResult } from "~/.server/db/search";
import { createTeamMember, type TeamMemberInput } from "~/.server/db/team";
import { loader as searchLoader } from "~/routes/public/search";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { memberInput } from "../support/team";

setUpTestDatabase();

/** An Associate with no practice area and no bio; `over` names and describes them. */
const member = (over: Partial<TeamMemberInput>): TeamMemberInput =>
  memberInput("Someone", { title: "Associate", email: "someone@firm.example", extension: 100, desc: "", AOP: [], ...over });

const article = (title: string, copy: string, created_at: Date, category = "insurance") =>
  createArticle({ title, copy, category, img: "", news: false, priority: false, date: "Monday, January 1, 2024", created_at }, TEST_ACTOR);

const text = (parts: { text: string; mark: boolean }[]) => parts.map((p) => (p.mark ? `[${p.text}]` : p.text)).join("");
const hrefs = (items: SearchResult[]) => items.map((i) => i.href);

let xssArticleId = 0;

beforeAll(async () => {
  await createTeamMember(
    member({
      full_name: "Eleanor Whitcombe",
      title: "Managing Partner",
      email: "ew@firm.example",
      desc: "Eleanor defends insurers in bodily injury and subrogation files.",
      AOP: ["insurance"],
      area_details: ["Subrogation", "Coverage issues"],
    }),
    TEST_ACTOR,
  );
  await createTeamMember(
    member({
      full_name: "Rajiv Menon",
      title: "Partner",
      email: "rm@firm.example",
      desc: "Rajiv is breach counsel when ransomware strikes.",
      AOP: ["cyber"],
    }),
    TEST_ACTOR,
  );
  const day = (n: number) => new Date(Date.UTC(2024, 0, n));
  // Ranking: the word in a title beats the word only in a body, however recent the body is.
  await article("Quiet title", "<p>A long note that mentions arbitration once, deep in the body.</p>", day(20));
  await article("Arbitration in Construction Disputes", "<p>Why parties choose it.</p>", day(2), "construction");
  // Stemming: "claims" in the body is found by "claim" and by "claiming".
  await article("Winter Slip Decision", "<p>Occupiers face new claims after the ruling.</p>", day(3));
  // Paging: 23 articles sharing one word.
  for (let i = 1; i <= 23; i++) await article(`Holdback note ${i}`, `<p>Holdback detail number ${i}.</p>`, day(100 + i), "construction");
  // Markup in a title and body must come back as text.
  const x = await article(
    `<img src=x onerror=alert(1)> Zebrafish <script>alert("t")</script>`,
    `<p>zebrafish &lt;b&gt;bold&lt;/b&gt; <em>zebrafish</em> study</p>`,
    day(5),
    "cyber",
  );
  xssArticleId = x.id;
});

describe("site search", () => {
  it("ranks a title match above a body-only match", async () => {
    const r = await searchSite("arbitration");
    expect(r.counts.insights).toBe(2);
    expect(hrefs(r.items)[0]).toBe("/post/Arbitration-in-Construction-Disputes");
    expect(hrefs(r.items)).toContain("/post/Quiet-title");
    expect(text(r.items[0].title)).toBe("[Arbitration] in Construction Disputes");
  });

  it("stems English words (claim, claiming → claims)", async () => {
    for (const q of ["claim", "claiming", "CLAIMS"]) {
      const r = await searchSite(q);
      expect(hrefs(r.items), q).toContain("/post/Winter-Slip-Decision");
    }
    const r = await searchSite("claim");
    const hit = r.items.find((i) => i.href === "/post/Winter-Slip-Decision")!;
    expect(text(hit.extract)).toContain("[claims]");
  });

  it("matches the last word as a prefix while it is typed", async () => {
    for (const q of ["whitc", "eleanor whit", "subrog", "ransomw"]) {
      const r = await searchSite(q);
      expect(r.nearMatches, q).toBe(false);
      expect(r.total, q).toBeGreaterThan(0);
    }
    expect(hrefs((await searchSite("whitc")).items)).toEqual(["/lawyer/Eleanor-Whitcombe"]);
  });

  it("finds names and titles with a typo (trigram similarity)", async () => {
    const r = await searchSite("Witcombe");
    expect(r.nearMatches).toBe(true);
    expect(hrefs(r.items)).toEqual(["/lawyer/Eleanor-Whitcombe"]);
    const t = await searchSite("arbitrtion construction");
    expect(hrefs(t.items)).toContain("/post/Arbitration-in-Construction-Disputes");
  });

  it("searches lawyers' titles, practice areas and fields of expertise", async () => {
    expect(hrefs((await searchSite("managing partner")).items)).toContain("/lawyer/Eleanor-Whitcombe");
    expect(hrefs((await searchSite("coverage issues")).items)).toContain("/lawyer/Eleanor-Whitcombe");
    expect(hrefs((await searchSite("insurance defence")).items)).toContain("/lawyer/Eleanor-Whitcombe");
  });

  it("searches the practice pages, with their editable header text", async () => {
    const r = await searchSite("ransomware");
    expect(hrefs(r.items)).toEqual(expect.arrayContaining(["/cyber", "/lawyer/Rajiv-Menon"]));
    expect(r.items.find((i) => i.href === "/cyber")!.kind).toBe("practice");
    expect((await searchSite("pelican")).total).toBe(0);
    await updatePageHeader("construction", "Pelican crossings and bridges.", TEST_ACTOR);
    expect(hrefs((await searchSite("pelican")).items)).toEqual(["/construction"]);
  });

  it("follows edits at once: the index is kept by the database", async () => {
    expect((await searchSite("quokka")).total).toBe(0);
    await updateArticle(
      xssArticleId,
      { title: "Quokka report", copy: "<p>zebrafish study</p>", category: "cyber", img: "", news: false, priority: false },
      TEST_ACTOR,
    );
    expect(hrefs((await searchSite("quokka")).items)).toEqual(["/post/Quokka-report"]);
    await updateArticle(
      xssArticleId,
      {
        title: `<img src=x onerror=alert(1)> Zebrafish <script>alert("t")</script>`,
        copy: `<p>zebrafish &lt;b&gt;bold&lt;/b&gt; <em>zebrafish</em> study</p>`,
        category: "cyber",
        img: "",
        news: false,
        priority: false,
      },
      TEST_ACTOR,
    );
    expect((await searchSite("quokka")).total).toBe(0);
  });

  it("filters by kind, with a count for every kind", async () => {
    const all = await searchSite("insurance");
    expect(all.counts.lawyers).toBe(1);
    expect(all.counts.practice).toBeGreaterThanOrEqual(1);
    const lawyers = await searchSite("insurance", { kind: "lawyers" });
    expect(lawyers.total).toBe(1);
    expect(lawyers.items.every((i) => i.kind === "lawyers")).toBe(true);
    const practice = await searchSite("insurance", { kind: "practice" });
    expect(practice.items.every((i) => i.kind === "practice")).toBe(true);
    expect(practice.counts).toEqual(all.counts);
  });

  it("pages ten at a time in the database, newest first among equals", async () => {
    const p1 = await searchSite("holdback", { kind: "insights" });
    expect(p1.total).toBe(23);
    expect(p1.pageCount).toBe(3);
    expect(p1.items).toHaveLength(10);
    expect(text(p1.items[0].title)).toBe("[Holdback] note 23");
    const p3 = await searchSite("holdback", { kind: "insights", page: 3 });
    expect(p3.items).toHaveLength(3);
    expect(text(p3.items[2].title)).toBe("[Holdback] note 1");
    const seen = new Set(
      [...p1.items, ...(await searchSite("holdback", { kind: "insights", page: 2 })).items, ...p3.items].map((i) => i.href),
    );
    expect(seen.size).toBe(23);
    // Past the end: the last page.
    const past = await searchSite("holdback", { kind: "insights", page: 99 });
    expect(past.page).toBe(3);
    expect(past.items).toHaveLength(3);
  });

  it("returns extracts and titles as text with marks, never markup", async () => {
    const r = await searchSite("zebrafish");
    const hit = r.items[0];
    expect(text(hit.title)).toBe(`<img src=x onerror=alert(1)> [Zebrafish] <script>alert("t")</script>`);
    expect(text(hit.extract)).toContain("[zebrafish]");
    expect(hit.extract.some((p) => p.text.includes("<em>"))).toBe(false);
    // The page renders the parts as React text: the HTML escapes them.
    const { renderToString } = await import("react-dom/server");
    const { createElement, Fragment } = await import("react");
    const html = renderToString(
      createElement(Fragment, null, ...hit.title.map((p, i) => (p.mark ? createElement("mark", { key: i }, p.text) : p.text))),
    );
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("<mark>Zebrafish</mark>");
  });

  it("shows only what visitors may see: no draft, scheduled or trashed article, no hidden or trashed member", async () => {
    const draft = await createArticle(
      {
        title: "Quokka Draft Memo",
        copy: "<p>quokka</p>",
        category: "cyber",
        img: "",
        news: false,
        priority: false,
        state: { status: "draft" },
      },
      TEST_ACTOR,
    );
    await createArticle(
      {
        title: "Quokka Scheduled Memo",
        copy: "<p>quokka</p>",
        category: "cyber",
        img: "",
        news: false,
        priority: false,
        state: { status: "scheduled", publishAt: new Date(Date.now() + 86_400_000) },
      },
      TEST_ACTOR,
    );
    const live = await article("Quokka Published Memo", "<p>quokka</p>", new Date(Date.UTC(2024, 1, 1)));
    const trashed = await article("Quokka Trashed Memo", "<p>quokka</p>", new Date(Date.UTC(2024, 1, 2)));
    await deleteArticle(trashed.id, TEST_ACTOR);
    await createTeamMember(
      {
        ...member({ full_name: "Quentin Quokka", email: "qq@firm.example" }),
        visibility: { visible: false, visibleFrom: null, hiddenFrom: null },
      },
      TEST_ACTOR,
    );
    const hidden = await searchSite("quokka");
    expect(hidden.items.map((i) => i.title.map((p) => p.text).join(""))).toEqual(["Quokka Published Memo"]);
    expect(hrefs(hidden.items)).toEqual([`/post/${live.slug}`]);
    // Published later: found at once.
    await updateArticle(
      draft.id,
      {
        title: draft.title,
        copy: draft.copy,
        category: draft.category,
        img: "",
        news: false,
        priority: false,
        state: { status: "published" },
      },
      TEST_ACTOR,
    );
    expect((await searchSite("quokka")).items).toHaveLength(2);
  });

  it("answers odd and hostile input with a page, never an error", async () => {
    const odd = [
      "",
      "   ",
      `"`,
      `'`,
      "&|!:*()",
      "a & b | !c",
      "foo:* & (bar",
      "\u0000",
      "insur\u0000ance",
      "x".repeat(2000),
      "insurance ".repeat(300),
      "<script>alert(1)</script>",
      "' OR 1=1 --",
      "😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
      "the and of",
      "\\",
      "%_%",
    ];
    for (const q of odd) {
      const r = await searchSite(q);
      expect(r.page, JSON.stringify(q)).toBe(1);
      expect(r.total).toBeGreaterThanOrEqual(0);
    }
    for (const q of odd) {
      const data = await searchLoader({
        request: new Request(`http://localhost:3000/search?q=${encodeURIComponent(q)}&kind=%27&page=-1`),
        params: {},
        context: testContext(),
      } as never);
      expect(data.q.length).toBeLessThanOrEqual(200);
      expect(data.kind).toBe("all");
    }
  });

  it("turns a query into letters-and-digits words only", () => {
    expect(searchTerms(`  Foo:* & (bar) | !baz "qux" `)).toEqual(["foo", "bar", "baz", "qux"]);
    expect(tsQueryText(["coverage", "disp"])).toBe("coverage & disp:*");
    expect(tsQueryText(["coverage", "di"])).toBe("coverage & di");
    expect(searchTerms("a ".repeat(50))).toHaveLength(8);
    expect(highlightParts("a \uE000b\uE001 c")).toEqual([
      { text: "a ", mark: false },
      { text: "b", mark: true },
      { text: " c", mark: false },
    ]);
  });
});

describe("site search over many articles", () => {
  it("ranks the newest 500 matching articles and says there are more", async () => {
    const { db } = await import("~/.server/db/client");
    const { sql } = await import("drizzle-orm");
    await db().execute(sql`insert into articles (slug, title, category, copy, created_at, status, published_at)
      select 'walrus-' || g, 'Walrus file ' || g, 'insurance', '<p>walrus</p>', now() - (g || ' minutes')::interval, 'published', now() - (g || ' minutes')::interval
      from generate_series(1, 1005) g`);
    const r = await searchSite("walrus");
    expect(r.more).toBe(true);
    expect(r.counts.insights).toBe(ARTICLE_CANDIDATES);
    expect(r.total).toBe(ARTICLE_CANDIDATES);
    expect(r.pageCount).toBe(ARTICLE_CANDIDATES / 10);
    // Among equally ranked matches the newest come first.
    expect(text(r.items[0].title)).toBe("[Walrus] file 1");
    const last = await searchSite("walrus", { page: ARTICLE_CANDIDATES / 10 });
    expect(last.items).toHaveLength(10);
    expect((await searchSite("walrus", { kind: "lawyers" })).more).toBe(false);
  });
});

/**
 * Articles and authors (issue 12): team members named as authors through the
 * article form (kept in revisions, History restore and the audit diff),
 * shown on the post with profile links and as JSON-LD Person authors (only
 * those the public may see), "Insights by {first name}" on a profile and the
 * author filter of /insights; the optional summary, SEO title and
 * description and the social picture (form, meta tags, cards, RSS, search,
 * link-preview pictures, replaced and purged pictures, the picture sweep).
 */
import { rowsOf } from "~/.server/db/rows";
import { testContext, guarded, callRoute } from "../support/route-call";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { AUTHORS_UNKNOWN } from "~/.server/admin/articles.server";
import { onContentChange } from "~/.server/db/content-events";
import { articleAuthorIds, listPublicAuthors } from "~/.server/db/article-authors";
import { createArticle, deleteArticle, getArticleById, updateArticle } from "~/.server/db/articles";
import { db } from "~/.server/db/client";
import { listRevisions } from "~/.server/db/revisions";
import { searchSite } from "~/.server/db/search";
import { isPublicPicture } from "~/.server/db/seo";
import { createTeamMember, deleteTeamMember, getTeamMemberById, updateTeamMember } from "~/.server/db/team";
import { purgeFromTrash } from "~/.server/db/trash";
import { findOrphanPictures } from "~/.server/pictures/picture-sweep";
import { getStorage } from "~/.server/storage/storage";
import * as articleEdit from "~/routes/admin/article-edit";
import * as articleNew from "~/routes/admin/article-new";
import * as history from "~/routes/admin/history";
import * as insights from "~/routes/public/insights";
import * as lawyer from "~/routes/public/lawyer";
import * as post from "~/routes/public/post";
import { loader as feed } from "~/routes/seo/feed";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { signedIn } from "../support/staff-session";
import { memberInput } from "../support/team";

setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "127.0.0.1";
const context = testContext(CLIENT_IP);
let cookie = "";
let JPEG: Buffer;

const base = { img: "", category: "cyber", news: false, priority: false, copy: "<p>Body of the article.</p>" };

/** A loader or action called as the server would, from the staff member's address. */
const run = (fn: (args: never) => Promise<unknown>, request: Request, params: Record<string, string> = {}) =>
  callRoute(fn, request, params, context);
const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { cookie } });
function postForm(path: string, fields: Record<string, string | string[]>, files: Record<string, Buffer> = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  for (const [k, bytes] of Object.entries(files)) body.append(k, new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), `${k}.jpg`);
  return new Request(`${ORIGIN}${path}`, { method: "POST", body, headers: { cookie, origin: ORIGIN } });
}
const publicGet = (path: string) => ({ request: new Request(`http://localhost${path}`), params: {}, context: testContext() });
async function articleRows(): Promise<number> {
  const r = await db().execute(sql`select (select count(*) from articles)::int + (select count(*) from article_authors)::int as n`);
  return Number(rowsOf<{ n: number }>(r)[0].n);
}
const stored = async () => (await getStorage().list("articles")).sort();

let ada = 0;
let grace = 0;
let hidden = 0;

beforeAll(async () => {
  JPEG = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#456" } })
    .jpeg()
    .toBuffer();
  cookie = await signedIn("editor@example.com", "owner", "10.9.0.7");
  ada = (await createTeamMember(memberInput("Ada Lovelace"), TEST_ACTOR)).id;
  grace = (await createTeamMember(memberInput("Grace Hopper"), TEST_ACTOR)).id;
  hidden = (
    await createTeamMember(
      { ...memberInput("Hidden Hire"), visibility: { visible: false, visibleFrom: null, hiddenFrom: null } },
      TEST_ACTOR,
    )
  ).id;
});

describe("the article form: authors, summary, SEO texts, social picture", () => {
  it("offers every member not in the Trash (hidden ones marked) and saves the chosen authors in order, with the new fields", async () => {
    const page = await run(articleNew.loader, get("/dashboard/articles/new"));
    const choices = page.data.authorChoices as { id: number; full_name: string; note: string }[];
    expect(choices.map((c) => c.full_name)).toEqual(["Ada Lovelace", "Grace Hopper", "Hidden Hire"]);
    expect(choices.find((c) => c.id === hidden)!.note).toBe("hidden");

    const saved = await run(
      articleNew.action,
      postForm(
        "/dashboard/articles/new",
        {
          title: "Breach Notices After Bill C-27",
          category: "cyber",
          news: "no",
          copy: "<p>What the new notice rules ask of a business after a breach.</p>",
          status: "published",
          authors: [String(grace), String(ada), String(grace)],
          summary: "  The notice rules,\n in short. ",
          seo_title: "Breach notice rules for Canadian businesses",
          seo_description: "What to tell whom, and when, after a privacy breach.",
        },
        { photo: JPEG, social_photo: JPEG },
      ),
    );
    expect(saved).toMatchObject({ status: 302, location: "/dashboard/articles/new" });
    const [row] = rowsOf<{ id: number }>(await db().execute(sql`select id from articles where title = 'Breach Notices After Bill C-27'`));
    const article = (await getArticleById(row.id))!;
    expect(article).toMatchObject({
      summary: "The notice rules, in short.",
      seo_title: "Breach notice rules for Canadian businesses",
      seo_description: "What to tell whom, and when, after a privacy breach.",
    });
    expect(article.social_img).toMatch(/\.jpg$/);
    expect(article.social_img).not.toBe(article.img);
    expect(await articleAuthorIds(article.id)).toEqual([grace, ada]);
    // The revision keeps the authors (id and name); the audit entry names them.
    const [revision] = await listRevisions("article", article.id);
    expect(revision.fields.authors).toEqual([
      { id: grace, name: "Grace Hopper" },
      { id: ada, name: "Ada Lovelace" },
    ]);
    expect(revision.fields).toMatchObject({
      summary: "The notice rules, in short.",
      seo_title: "Breach notice rules for Canadian businesses",
    });
    const audit = await db().execute(
      sql`select changes from audit_log where item_type = 'article' and item_id = ${String(article.id)} order by id desc limit 1`,
    );
    const changes = (audit as { rows: { changes: Record<string, { after?: unknown }> }[] }).rows[0].changes;
    expect(changes.authors.after).toEqual(["Grace Hopper", "Ada Lovelace"]);
    expect(changes.summary.after).toBe("The notice rules, in short.");

    // The edit form shows them back.
    const edit = await run(articleEdit.loader, get(`/dashboard/articles/${article.id}/edit`), { id: String(article.id) });
    expect(edit.data.authorIds).toEqual([grace, ada]);
  });

  it("refuses an author that is not offered, and over-long texts, with field messages, everything typed kept, nothing written", async () => {
    const existing = await createArticle({ ...base, title: "Edited With A Stranger" }, TEST_ACTOR);
    const gone = await createTeamMember(memberInput("Gone Member"), TEST_ACTOR);
    await deleteTeamMember(gone.id, TEST_ACTOR);
    const before = await articleRows();
    const files = await stored();
    const fields = { title: "Refused Article", category: "cyber", news: "no", copy: "<p>Text</p>", status: "published" };
    const unknown = await run(
      articleNew.action,
      postForm(
        "/dashboard/articles/new",
        { ...fields, authors: [String(ada), "999999"], summary: "Kept summary" },
        { photo: JPEG, social_photo: JPEG },
      ),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.data.errors).toMatchObject({
      authors: AUTHORS_UNKNOWN,
      photo: expect.stringMatching(/Choose the picture again/),
      social_photo: expect.stringMatching(/Choose the picture again/),
    });
    expect(unknown.data.values).toMatchObject({ title: "Refused Article", summary: "Kept summary", authors: [String(ada), "999999"] });
    const junk = await run(articleNew.action, postForm("/dashboard/articles/new", { ...fields, authors: ["abc"] }, { photo: JPEG }));
    expect(junk.status).toBe(400);
    expect((junk.data.errors as Record<string, string>).authors).toBe("Select the authors from the list of team members.");
    const long = await run(
      articleNew.action,
      postForm(
        "/dashboard/articles/new",
        { ...fields, summary: "s".repeat(301), seo_title: "t".repeat(121), seo_description: "d".repeat(301) },
        { photo: JPEG },
      ),
    );
    expect(long.status).toBe(400);
    expect(long.data.errors).toMatchObject({
      summary: "Summary must be at most 300 characters.",
      seo_title: "SEO title must be at most 120 characters.",
      seo_description: "SEO description must be at most 300 characters.",
    });
    // On an edit (no picture sent) only the authors are wrong: the form's message for a field to correct.
    const edit = await run(
      articleEdit.action,
      postForm(`/dashboard/articles/${existing.id}/edit`, { ...fields, title: existing.title, authors: "999999" }),
      { id: String(existing.id) },
    );
    expect(edit.status).toBe(400);
    expect(edit.data.status).toEqual({ tone: "error", text: "Please correct the highlighted fields." });
    // A member in the Trash is no longer offered to a new article.
    const trashed = await run(
      articleNew.action,
      postForm("/dashboard/articles/new", { ...fields, authors: [String(gone.id)] }, { photo: JPEG }),
    );
    expect((trashed.data.errors as Record<string, string>).authors).toBe(AUTHORS_UNKNOWN);
    expect(await articleRows()).toBe(before);
    expect(await stored()).toEqual(files);
  });

  it("replacing the social picture removes the old one; 'Remove the social picture' removes it; an edit without authors clears them", async () => {
    const a = await createArticle({ ...base, title: "Social Picture Article", authors: [ada] }, TEST_ACTOR);
    const fields = { title: a.title, category: "cyber", news: "no", copy: a.copy, status: "published", version: String(a.version) };
    const first = await run(
      articleEdit.action,
      postForm(`/dashboard/articles/${a.id}/edit`, { ...fields, authors: String(ada) }, { social_photo: JPEG }),
      { id: String(a.id) },
    );
    expect(first.status).toBe(302);
    const one = (await getArticleById(a.id))!.social_img;
    expect(await stored()).toContain(`articles/${one}`);
    const second = await run(
      articleEdit.action,
      postForm(
        `/dashboard/articles/${a.id}/edit`,
        { ...fields, version: String(a.version + 1), authors: String(ada) },
        { social_photo: JPEG },
      ),
      { id: String(a.id) },
    );
    expect(second.status).toBe(302);
    const two = (await getArticleById(a.id))!.social_img;
    expect(two).not.toBe(one);
    expect((await stored()).some((k) => k.includes(one.replace(/\.\w+$/, "")))).toBe(false);
    const third = await run(
      articleEdit.action,
      postForm(`/dashboard/articles/${a.id}/edit`, { ...fields, version: String(a.version + 2), remove_social_photo: "on" }),
      { id: String(a.id) },
    );
    expect(third.status).toBe(302);
    const after = (await getArticleById(a.id))!;
    expect(after.social_img).toBe("");
    expect((await stored()).some((k) => k.includes(two.replace(/\.\w+$/, "")))).toBe(false);
    // No authors box ticked: the article names no one now.
    expect(await articleAuthorIds(a.id)).toEqual([]);
  });
});

describe("History: authors and the new fields", () => {
  it("shows what changed in authors and summary, and Restore brings the authors back", async () => {
    const a = await createArticle({ ...base, title: "Restorable Article", summary: "First summary", authors: [ada, grace] }, TEST_ACTOR);
    await updateArticle(a.id, { ...base, title: "Restorable Article", summary: "Second summary", authors: [grace] }, TEST_ACTOR);
    const list = await listRevisions("article", a.id);
    const page = await run(history.loader, get(`/dashboard/history/article/${a.id}?rev=${list[0].id}`), {
      kind: "article",
      id: String(a.id),
    });
    const changes = page.data.changes as { field: string; parts: { value: string; added?: boolean; removed?: boolean }[] }[];
    expect(changes.map((c) => c.field)).toEqual(["authors", "summary"]);
    expect(changes[0].parts.filter((p) => p.removed).map((p) => p.value)).toContain("Ada Lovelace, ");
    const restored = await run(
      history.action,
      new Request(`${ORIGIN}/dashboard/history/article/${a.id}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "restore", revision: String(list[1].id) }),
        headers: { cookie, origin: ORIGIN },
      }),
      { kind: "article", id: String(a.id) },
    );
    expect(restored.status).toBe(302);
    expect(await articleAuthorIds(a.id)).toEqual([ada, grace]);
    expect((await getArticleById(a.id))!.summary).toBe("First summary");
  });

  it("restoring a revision made before authors existed keeps the current authors; a purged member is left out", async () => {
    const a = await createArticle({ ...base, title: "Old Revision Article", authors: [ada] }, TEST_ACTOR);
    await db().execute(sql`update revisions set fields = fields - 'authors' - 'summary' where item_type = 'article' and item_id = ${a.id}`);
    const [old] = await listRevisions("article", a.id);
    await updateArticle(a.id, { ...base, title: "Old Revision Article", summary: "Kept", authors: [ada] }, TEST_ACTOR);
    const restore = (revision: number) =>
      run(
        history.action,
        new Request(`${ORIGIN}/dashboard/history/article/${a.id}`, {
          method: "POST",
          body: new URLSearchParams({ intent: "restore", revision: String(revision) }),
          headers: { cookie, origin: ORIGIN },
        }),
        { kind: "article", id: String(a.id) },
      );
    expect((await restore(old.id)).status).toBe(302);
    expect(await articleAuthorIds(a.id)).toEqual([ada]);
    expect((await getArticleById(a.id))!.summary).toBe("Kept");

    const temp = await createTeamMember(memberInput("Temp Writer"), TEST_ACTOR);
    await updateArticle(a.id, { ...base, title: "Old Revision Article", authors: [temp.id, ada] }, TEST_ACTOR);
    const [withTemp] = await listRevisions("article", a.id);
    await deleteTeamMember(temp.id, TEST_ACTOR);
    await purgeFromTrash("team", temp.id, TEST_ACTOR);
    expect(await articleAuthorIds(a.id)).toEqual([ada]);
    expect((await restore(withTemp.id)).status).toBe(302);
    expect(await articleAuthorIds(a.id)).toEqual([ada]);
  });
});

describe("the public post", () => {
  it("names its visible authors with profile links and as JSON-LD Person; a hidden member is left out", async () => {
    const a = await createArticle({ ...base, title: "Three Authors", authors: [grace, hidden, ada] }, TEST_ACTOR);
    const data = (await guarded(post.loader, { ...publicGet(`/post/${a.slug}`), params: { slug: a.slug } })) as {
      article: { authors: unknown[] };
      jsonLd: unknown[];
    };
    expect(data.article.authors).toEqual([
      { slug: "Grace-Hopper", full_name: "Grace Hopper" },
      { slug: "Ada-Lovelace", full_name: "Ada Lovelace" },
    ]);
    const ld = data.jsonLd[0] as { author: unknown };
    expect(ld.author).toEqual([
      { "@type": "Person", name: "Grace Hopper", url: expect.stringMatching(/\/lawyer\/Grace-Hopper$/) },
      { "@type": "Person", name: "Ada Lovelace", url: expect.stringMatching(/\/lawyer\/Ada-Lovelace$/) },
    ]);
    // Once the hidden member is shown, the post names them too (read at render; the cache is cleared by the save).
    await updateTeamMember(
      hidden,
      { ...memberInput("Hidden Hire"), visibility: { visible: true, visibleFrom: null, hiddenFrom: null } },
      TEST_ACTOR,
    );
    expect((await listPublicAuthors(a.id)).map((m) => m.full_name)).toEqual(["Grace Hopper", "Hidden Hire", "Ada Lovelace"]);
    await updateTeamMember(
      hidden,
      { ...memberInput("Hidden Hire"), visibility: { visible: false, visibleFrom: null, hiddenFrom: null } },
      TEST_ACTOR,
    );
  });

  it("with no visible author the firm is the author", async () => {
    const a = await createArticle({ ...base, title: "Firm Article", authors: [hidden] }, TEST_ACTOR);
    const data = (await guarded(post.loader, { ...publicGet(`/post/${a.slug}`), params: { slug: a.slug } })) as unknown as {
      article: { authors: unknown[] };
      jsonLd: { author: unknown }[];
    };
    expect(data.article.authors).toEqual([]);
    expect(data.jsonLd[0].author).toMatchObject({ "@type": "Organization" });
  });

  it("title, description and link-preview picture: SEO texts when set, else summary, else derived from the body", async () => {
    const meta = (data: unknown) => post.meta({ matches: [], loaderData: data, params: {} } as never) as Record<string, string>[];
    const tag = (tags: Record<string, string>[], key: string) =>
      tags.find((t) => t.property === key || t.name === key || ("title" in t && key === "title"));
    const derived = await createArticle(
      { ...base, title: "Plain Article", img: "aaaa-1.jpg", copy: "<p>The opening words of the body.</p><p>More.</p>" },
      TEST_ACTOR,
    );
    const load = async (slug: string) => guarded(post.loader, { ...publicGet(`/post/${slug}`), params: { slug } });
    let tags = meta(await load(derived.slug));
    expect(tag(tags, "description")!.content).toBe("The opening words of the body. More.");
    expect(tags.find((t) => "title" in t)!.title).toMatch(/^Plain Article \| /);
    expect(tag(tags, "og:image")!.content).toMatch(/\/og\/articles\/aaaa-1\.jpg$/);

    const summarised = await createArticle(
      { ...base, title: "Summarised Article", summary: "The summary says it.", copy: "<p>Body.</p>" },
      TEST_ACTOR,
    );
    tags = meta(await load(summarised.slug));
    expect(tag(tags, "description")!.content).toBe("The summary says it.");

    const seo = await createArticle(
      {
        ...base,
        title: "SEO Article",
        img: "aaaa-2.jpg",
        social_img: "bbbb-3.jpg",
        summary: "Summary.",
        seo_title: "A Better Title",
        seo_description: "A better description.",
      },
      TEST_ACTOR,
    );
    tags = meta(await load(seo.slug));
    expect(tags.find((t) => "title" in t)!.title).toMatch(/^A Better Title \| /);
    expect(tag(tags, "og:title")!.content).toMatch(/^A Better Title \| /);
    expect(tag(tags, "description")!.content).toBe("A better description.");
    expect(tag(tags, "og:description")!.content).toBe("A better description.");
    expect(tag(tags, "og:image")!.content).toMatch(/\/og\/articles\/bbbb-3\.jpg$/);
    // The link-preview picture route serves a published article's social picture, not a draft's.
    expect(await isPublicPicture("articles", "bbbb-3")).toBe(true);
    const draft = await createArticle({ ...base, title: "Draft Social", social_img: "cccc-4.jpg", state: { status: "draft" } }, TEST_ACTOR);
    expect(draft.status).toBe("draft");
    expect(await isPublicPicture("articles", "cccc-4")).toBe(false);
  });
});

describe("Insights by an author", () => {
  let writer = 0;
  beforeAll(async () => {
    writer = (await createTeamMember(memberInput("Prolific Writer", { AOP: ["insurance"] }), TEST_ACTOR)).id;
    for (let i = 1; i <= 8; i++) {
      await createArticle(
        {
          ...base,
          category: i % 2 ? "insurance" : "cyber",
          title: `Writer Article ${i}`,
          authors: [writer],
          state: { status: "published", publishAt: new Date(Date.UTC(2025, 0, i)) },
        },
        TEST_ACTOR,
      );
    }
    await createArticle({ ...base, title: "Writer Draft", authors: [writer], state: { status: "draft" } }, TEST_ACTOR);
    const trashed = await createArticle({ ...base, title: "Writer Trashed", authors: [writer] }, TEST_ACTOR);
    await deleteArticle(trashed.id, TEST_ACTOR);
  });

  it("the profile shows the latest 6 published articles (cards with their text) and a link to all", async () => {
    const data = (await guarded(lawyer.loader, {
      ...publicGet("/lawyer/Prolific-Writer"),
      params: { slug: "Prolific-Writer" },
    })) as {
      insights: { total: number; items: { title: string; summary: string }[] };
    };
    expect(data.insights.total).toBe(8);
    expect(data.insights.items.map((a) => a.title)).toEqual([8, 7, 6, 5, 4, 3].map((i) => `Writer Article ${i}`));
    expect(data.insights.items[0].summary).toBe("Body of the article.");
    // A member with no article has none (the page then has no such section).
    await createTeamMember(memberInput("Quiet Member"), TEST_ACTOR);
    const none = (await guarded(lawyer.loader, { ...publicGet("/lawyer/Quiet-Member"), params: { slug: "Quiet-Member" } })) as {
      insights: { total: number; items: unknown[] };
    };
    expect(none.insights).toEqual({ total: 0, items: [] });
  });

  it("/insights?author= pages that author's published articles 6 at a time, with the category filter", async () => {
    const page1 = (await insights.loader(publicGet("/insights?author=Prolific-Writer") as never)) as {
      total: number;
      pageCount: number;
      articles: { title: string }[];
      author: { full_name: string };
    };
    expect(page1).toMatchObject({ total: 8, pageCount: 2, author: { full_name: "Prolific Writer" } });
    expect(page1.articles).toHaveLength(6);
    const page2 = (await insights.loader(publicGet("/insights?author=Prolific-Writer&page=2") as never)) as {
      articles: { title: string }[];
    };
    expect(page2.articles.map((a) => a.title)).toEqual(["Writer Article 2", "Writer Article 1"]);
    const cyber = (await insights.loader(publicGet("/insights?author=Prolific-Writer&category=cyber") as never)) as {
      total: number;
      articles: { title: string }[];
    };
    expect(cyber.total).toBe(4);
    expect(cyber.articles.map((a) => a.title)).toEqual(["Writer Article 8", "Writer Article 6", "Writer Article 4", "Writer Article 2"]);
  });

  it("an unknown or hidden author is a 404 (never a 500); a renamed author's old link moves to the new one", async () => {
    for (const slug of ["Nobody-Here", "Hidden-Hire", "", "x".repeat(300), "a\u0000b", "%zz"]) {
      const out = await run(insights.loader, new Request(`http://localhost/insights?author=${encodeURIComponent(slug)}`));
      expect(out.status, slug).toBe(404);
    }
    const renamed = await createTeamMember(memberInput("Old Name"), TEST_ACTOR);
    await createArticle({ ...base, title: "By The Renamed", authors: [renamed.id] }, TEST_ACTOR);
    await updateTeamMember(renamed.id, { ...memberInput("New Name") }, TEST_ACTOR);
    const moved = await run(insights.loader, new Request("http://localhost/insights?author=Old-Name&category=cyber"));
    expect(moved).toMatchObject({ status: 301, location: "/insights?author=New-Name&category=cyber" });
  });

  it("renaming or hiding an author is a content change (the page cache is cleared) and the post follows it", async () => {
    const seen: string[] = [];
    const stop = onContentChange((what) => seen.push(what));
    const a = await createArticle({ ...base, title: "Follows Its Author", authors: [grace] }, TEST_ACTOR);
    seen.length = 0;
    await updateTeamMember(grace, memberInput("Grace B. Hopper"), TEST_ACTOR);
    expect(seen).toContain("team");
    expect((await listPublicAuthors(a.id)).map((m) => [m.full_name, m.slug])).toEqual([
      ["Grace B. Hopper", (await getTeamMemberById(grace))!.slug],
    ]);
    seen.length = 0;
    await updateTeamMember(
      grace,
      { ...memberInput("Grace B. Hopper"), visibility: { visible: false, visibleFrom: null, hiddenFrom: null } },
      TEST_ACTOR,
    );
    expect(seen).toContain("team");
    expect(await listPublicAuthors(a.id)).toEqual([]);
    await updateTeamMember(
      grace,
      { ...memberInput("Grace Hopper"), visibility: { visible: true, visibleFrom: null, hiddenFrom: null } },
      TEST_ACTOR,
    );
    stop();
    expect((await getTeamMemberById(grace))!.full_name).toBe("Grace Hopper");
  });
});

describe("summary elsewhere: cards, RSS, search", () => {
  it("cards and the feed use the summary, else text from the body", async () => {
    await createArticle(
      { ...base, category: "construction", title: "Card With Summary", summary: "Card summary text.", copy: "<p>Not this.</p>" },
      TEST_ACTOR,
    );
    await createArticle(
      {
        ...base,
        category: "construction",
        title: "Card Without Summary",
        copy: `<p>Derived &amp; <strong>plain</strong> text ${"word ".repeat(400)}</p>`,
      },
      TEST_ACTOR,
    );
    const list = (await insights.loader(publicGet("/insights?category=construction") as never)) as {
      articles: { title: string; summary: string }[];
    };
    const byTitle = Object.fromEntries(list.articles.map((a) => [a.title, a.summary]));
    expect(byTitle["Card With Summary"]).toBe("Card summary text.");
    expect(byTitle["Card Without Summary"]).toMatch(/^Derived & plain text word word .*…$/);
    expect(byTitle["Card Without Summary"].length).toBeLessThanOrEqual(180);

    const xml = await (await feed()).text();
    expect(xml).toContain("<description>Card summary text.</description>");
    expect(xml).toMatch(/<description>Derived &amp; plain text word/);
  });

  it("search weighs title over summary over body", async () => {
    await createArticle({ ...base, title: "Zeppelin Liability", copy: "<p>Unrelated.</p>" }, TEST_ACTOR);
    await createArticle({ ...base, title: "Airship Claims", summary: "Zeppelin damage in short.", copy: "<p>Unrelated.</p>" }, TEST_ACTOR);
    await createArticle({ ...base, title: "Hangar Roofs", copy: "<p>A zeppelin hit the hangar.</p>" }, TEST_ACTOR);
    const result = await searchSite("zeppelin", { kind: "insights" });
    expect(result.items.map((r) => r.title.map((p) => p.text).join(""))).toEqual(["Zeppelin Liability", "Airship Claims", "Hangar Roofs"]);
    // A match in the summary shows it in the extract.
    expect(result.items[1].extract.map((p) => p.text).join("")).toContain("damage in short");
  });
});

describe("social pictures: purge and the picture sweep", () => {
  it("the sweep keeps a social picture in use; purging the article from the Trash removes it", async () => {
    const a = await createArticle({ ...base, title: "Purged With Pictures", authors: [ada] }, TEST_ACTOR);
    const fields = { title: a.title, category: "cyber", news: "no", copy: a.copy, status: "published", authors: String(ada) };
    expect(
      (
        await run(articleEdit.action, postForm(`/dashboard/articles/${a.id}/edit`, fields, { photo: JPEG, social_photo: JPEG }), {
          id: String(a.id),
        })
      ).status,
    ).toBe(302);
    const row = (await getArticleById(a.id))!;
    expect(await findOrphanPictures()).toEqual([]);
    await deleteArticle(a.id, TEST_ACTOR);
    expect(await purgeFromTrash("article", a.id, TEST_ACTOR)).toBe("Purged With Pictures");
    const left = await stored();
    for (const img of [row.img, row.social_img])
      expect(
        left.some((k) => k.includes(img.replace(/\.\w+$/, ""))),
        img,
      ).toBe(false);
    // Its author rows went with it.
    const r = await db().execute(sql`select count(*)::int as n from article_authors where article_id = ${a.id}`);
    expect((r as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });
});

/**
 * Drafts, scheduled articles and hidden team members stay off every public
 * route and feed (the one predicate of db/visibility.ts), and scheduled
 * publishing puts them live — also when no server ran at their time, and
 * exactly once when two runs race — with an audit entry and a content change.
 */
import { testContext } from "../support/route-call";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { onContentChange } from "~/.server/db/content-events";
import { createArticle, deleteArticle, getArticleById, listArticlePage, listLatestArticles, updateArticle } from "~/.server/db/articles";
import { EditConflict, listRevisions } from "~/.server/db/revisions";
import { restoreFromTrash } from "~/.server/db/trash";
import { auditLog } from "~/.server/db/schema";
import { isPublicPicture } from "~/.server/db/seo";
import { findMovedSlug } from "~/.server/db/slug-lookup";
import { createTeamMember, deleteTeamMember, getTeamMemberById, listTeamCards, updateTeamMember } from "~/.server/db/team";
import { runScheduledPublishing } from "~/.server/jobs/jobs";
import { createJobQueue } from "~/.server/jobs/queue";
import { loader as feed } from "~/routes/seo/feed";
import { loader as ogImage } from "~/routes/seo/og-image";
import { loader as sitemap } from "~/routes/seo/sitemap";
import { loader as home } from "~/routes/public/home";
import { loader as insights } from "~/routes/public/insights";
import { loader as lawyer } from "~/routes/public/lawyer";
import { loader as post } from "~/routes/public/post";
import { loader as practice } from "~/routes/public/practice";
import { loader as teamPage } from "~/routes/public/team";
import { loader as vcard } from "~/routes/public/vcard";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { memberInput } from "../support/team";

const state = setUpTestDatabase();
const base = { img: "", news: true, priority: false, copy: "<p>Secret draft body</p>" };

async function status(work: () => Promise<unknown>): Promise<number> {
  try {
    const result = await work();
    return result instanceof Response ? result.status : 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return init.status;
    throw thrown;
  }
}
const args = (url: string, params: Record<string, string> = {}) =>
  ({ request: new Request(`http://localhost${url}`), params, context: testContext() }) as never;

let draftId = 0;
let hiddenId = 0;

beforeAll(async () => {
  // Its own body: cards now show the start of a body, and the draft's words must not appear anywhere.
  await createArticle({ ...base, title: "Live Cyber Note", category: "cyber", copy: "<p>Public body</p>" }, TEST_ACTOR);
  const draft = await createArticle(
    { ...base, title: "Draft Cyber Note", category: "cyber", img: "draft-pic.webp", state: { status: "draft" } },
    TEST_ACTOR,
  );
  draftId = draft.id;
  await createArticle(
    {
      ...base,
      title: "Scheduled Cyber Note",
      category: "cyber",
      state: { status: "scheduled", publishAt: new Date(Date.now() + 86_400_000) },
    },
    TEST_ACTOR,
  );
  await createTeamMember(memberInput("Visible Person"), TEST_ACTOR);
  const hidden = await createTeamMember(
    { ...memberInput("Hidden Person"), img: "hidden-pic.webp", visibility: { visible: false, visibleFrom: null, hiddenFrom: null } },
    TEST_ACTOR,
  );
  hiddenId = hidden.id;
});

describe("nothing unpublished leaks through a public route", () => {
  it("lists, counts, teaser, practice tabs, team grid", async () => {
    const page = await listArticlePage({ filter: "all", page: 1 });
    expect(page.items.map((a) => a.title)).toEqual(["Live Cyber Note"]);
    expect(page.total).toBe(1);
    expect((await listArticlePage({ filter: "cyber", page: 1 })).total).toBe(1);
    expect((await listArticlePage({ filter: "news", page: 1 })).total).toBe(1);
    expect((await listLatestArticles()).map((a) => a.title)).toEqual(["Live Cyber Note"]);
    expect((await listTeamCards()).map((m) => m.full_name)).toEqual(["Visible Person"]);

    const pages = [await home(), await insights(args("/insights")), await practice(args("/cyber")), await teamPage(args("/team"))];
    const text = JSON.stringify(pages);
    expect(text).toContain("Live Cyber Note");
    expect(text).toContain("Visible Person");
    for (const secret of ["Draft Cyber Note", "Scheduled Cyber Note", "Hidden Person", "Secret draft"]) expect(text).not.toContain(secret);
  });

  it("a draft's or hidden member's URL is the spec's 404 (also its vCard, other spellings and link picture)", async () => {
    expect(await status(() => post(args("/post/Draft-Cyber-Note", { slug: "Draft-Cyber-Note" })))).toBe(404);
    expect(await status(() => post(args("/post/Scheduled-Cyber-Note", { slug: "Scheduled-Cyber-Note" })))).toBe(404);
    expect(await status(() => post(args("/post/draft-cyber-note", { slug: "draft-cyber-note" })))).toBe(404);
    expect(await status(() => lawyer(args("/lawyer/Hidden-Person", { slug: "Hidden-Person" })))).toBe(404);
    expect(await status(() => lawyer(args("/lawyer/hidden-person", { slug: "hidden-person" })))).toBe(404);
    expect(await status(() => vcard(args("/lawyer/Hidden-Person/vcard", { slug: "Hidden-Person" })))).toBe(404);
    expect(await findMovedSlug("post", "draft-cyber-note")).toBeUndefined();
    expect(await status(() => post(args("/post/Live-Cyber-Note", { slug: "Live-Cyber-Note" })))).toBe(200);
    expect(await status(() => lawyer(args("/lawyer/Visible-Person", { slug: "Visible-Person" })))).toBe(200);
    expect(await isPublicPicture("articles", "draft-pic")).toBe(false);
    expect(await isPublicPicture("team", "hidden-pic")).toBe(false);
    expect(await status(() => ogImage(args("/og/articles/draft-pic.jpg", { kind: "articles", file: "draft-pic.jpg" })))).toBe(404);
  });

  it("sitemap and RSS feed hold only what is public", async () => {
    const xml = await (await sitemap()).text();
    const rss = await (await feed()).text();
    expect(xml).toContain("/post/Live-Cyber-Note");
    expect(xml).toContain("/lawyer/Visible-Person");
    expect(rss).toContain("Live Cyber Note");
    for (const secret of ["Draft-Cyber-Note", "Scheduled-Cyber-Note", "Hidden-Person"]) expect(xml).not.toContain(secret);
    for (const secret of ["Draft Cyber Note", "Scheduled Cyber Note"]) expect(rss).not.toContain(secret);
  });
});

describe("states", () => {
  it("publishing a draft dates it today; unpublishing returns it to draft; republishing dates it again", async () => {
    const before = (await getArticleById(draftId))!;
    expect(before.status).toBe("draft");
    const input = {
      title: before.title,
      img: before.img,
      category: before.category,
      news: before.news,
      priority: false,
      copy: before.copy,
    };
    const published = (await updateArticle(draftId, { ...input, state: { status: "published" } }, TEST_ACTOR))!.after;
    expect(published.status).toBe("published");
    expect(published.published_at).toBeInstanceOf(Date);
    expect(published.date).toMatch(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect((await listLatestArticles()).map((a) => a.title)).toContain("Draft Cyber Note");
    const again = (await updateArticle(draftId, { ...input, state: { status: "published" } }, TEST_ACTOR))!.after;
    expect(again.published_at).toEqual(published.published_at);
    const unpublished = (await updateArticle(draftId, { ...input, state: { status: "draft" } }, TEST_ACTOR))!.after;
    expect(unpublished.status).toBe("draft");
    expect((await listLatestArticles()).map((a) => a.title)).not.toContain("Draft Cyber Note");
  });
});

describe("scheduled publishing", () => {
  it("publishes what fell due while no server ran at the next start, once, audited, announcing the change", async () => {
    const due = await createArticle(
      { ...base, title: "Due While Down", category: "insurance", state: { status: "scheduled", publishAt: new Date(Date.now() + 60_000) } },
      TEST_ACTOR,
    );
    // Not yet: a run now leaves it scheduled.
    expect((await runScheduledPublishing()).articlesPublished).toBe(0);
    // "The server was down" at its time: the first run after, at start-up, publishes it.
    const changes: string[] = [];
    const off = onContentChange((what) => changes.push(what));
    const later = new Date(Date.now() + 5 * 60_000);
    const queue = createJobQueue(state.database, [
      { name: "scheduled-publishing", when: { everySeconds: 60 }, run: () => runScheduledPublishing(later) },
    ]);
    await queue.start();
    await queue.stop();
    off();
    const row = (await getArticleById(due.id))!;
    expect(row.status).toBe("published");
    expect(changes).toContain("articles");
    expect((await listLatestArticles()).map((a) => a.title)).toContain("Due While Down");
    const entries = await state.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.item_id, String(due.id)));
    const publish = entries.filter((e) => e.action === "publish");
    expect(publish).toHaveLength(1);
    expect(publish[0].actor_label).toBe("scheduled publishing");
    expect(publish[0].actor_id).toBeNull();
  });

  it("two runs racing publish each item exactly once", async () => {
    const a = await createArticle(
      { ...base, title: "Race One", category: "insurance", state: { status: "scheduled", publishAt: new Date(Date.now() + 1000) } },
      TEST_ACTOR,
    );
    const later = new Date(Date.now() + 60_000);
    const results = await Promise.all([runScheduledPublishing(later), runScheduledPublishing(later), runScheduledPublishing(later)]);
    expect(results.reduce((n, r) => n + r.articlesPublished, 0)).toBe(1);
    const entries = await state.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.item_id, String(a.id)));
    expect(entries.filter((e) => e.action === "publish")).toHaveLength(1);
  });

  it("records the version it makes as a revision, so an editor saving an older one is told scheduled publishing saved in between", async () => {
    const a = await createArticle(
      { ...base, title: "Open In An Editor", category: "cyber", state: { status: "scheduled", publishAt: new Date(Date.now() + 1000) } },
      TEST_ACTOR,
    );
    const opened = (await getArticleById(a.id))!.version;
    await runScheduledPublishing(new Date(Date.now() + 60_000));
    const revisions = await listRevisions("article", a.id);
    expect(revisions[0]).toMatchObject({ version: opened + 1, actor_label: "scheduled publishing" });
    expect((revisions[0].fields as { status: string }).status).toBe("published");
    const refused = await updateArticle(
      a.id,
      { ...base, title: "Open In An Editor", category: "cyber", expectedVersion: opened },
      TEST_ACTOR,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EditConflict);
    expect(refused).toMatchObject({ savedBy: "scheduled publishing" });
    expect((refused as EditConflict).savedAt).toBeInstanceOf(Date);
  });

  it("leaves an article or member in the Trash as it is; once restored, the next run applies its time", async () => {
    const soon = new Date(Date.now() + 1000);
    const a = await createArticle(
      { ...base, title: "Trashed Before Its Time", category: "cyber", state: { status: "scheduled", publishAt: soon } },
      TEST_ACTOR,
    );
    const m = await createTeamMember(
      { ...memberInput("Trashed Newcomer"), visibility: { visible: false, visibleFrom: soon, hiddenFrom: null } },
      TEST_ACTOR,
    );
    await deleteArticle(a.id, TEST_ACTOR);
    await deleteTeamMember(m.id, TEST_ACTOR);
    const later = new Date(Date.now() + 60_000);
    await runScheduledPublishing(later);
    expect((await getArticleById(a.id, { withTrashed: true }))!.status).toBe("scheduled");
    expect((await getTeamMemberById(m.id, { withTrashed: true }))!.visible).toBe(false);
    const entries = await state.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.item_id, String(a.id)));
    expect(entries.filter((e) => e.action === "publish")).toHaveLength(0);
    await restoreFromTrash("article", a.id, TEST_ACTOR);
    await restoreFromTrash("team", m.id, TEST_ACTOR);
    await runScheduledPublishing(later);
    expect((await getArticleById(a.id))!.status).toBe("published");
    expect((await getTeamMemberById(m.id))!.visible).toBe(true);
    await deleteArticle(a.id, TEST_ACTOR);
    await deleteTeamMember(m.id, TEST_ACTOR);
  });

  it("applies a member's visible-from and hidden-from times", async () => {
    const soon = new Date(Date.now() + 60_000);
    const departing = await createTeamMember(
      { ...memberInput("Departing Person"), visibility: { visible: true, visibleFrom: null, hiddenFrom: soon } },
      TEST_ACTOR,
    );
    await updateTeamMember(
      hiddenId,
      { ...memberInput("Hidden Person"), img: "hidden-pic.webp", visibility: { visible: false, visibleFrom: soon, hiddenFrom: null } },
      TEST_ACTOR,
    );
    expect((await listTeamCards()).map((m) => m.full_name).sort()).toEqual(["Departing Person", "Visible Person"]);
    const result = await runScheduledPublishing(new Date(soon.getTime() + 1000));
    expect(result).toMatchObject({ membersShown: 1, membersHidden: 1 });
    expect((await listTeamCards()).map((m) => m.full_name).sort()).toEqual(["Hidden Person", "Visible Person"]);
    expect((await getTeamMemberById(departing.id))!).toMatchObject({ visible: false, hidden_from: null });
    expect(await isPublicPicture("team", "hidden-pic")).toBe(true);
  });
});

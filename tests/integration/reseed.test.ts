/**
 * `npm run db:seed` replaces all content (scripts/seed.ts: clearContent, then
 * the demo content) — also once content has revisions, authors, share-a-preview
 * links and autosaved drafts, which reference it (a truncate of the content
 * tables alone is refused by PostgreSQL) — and leaves nothing of the old items
 * behind: no revision of an old article shows up in a new one's History, and
 * new items never reuse an old id the audit trail names.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { db } from "~/.server/db/client";
import { createArticle, updateArticle } from "~/.server/db/articles";
import { saveAutosave } from "~/.server/db/autosaves";
import { createPreviewLink } from "~/.server/db/previews";
import { listRevisions } from "~/.server/db/revisions";
import { articleAutosaves, articles, previewLinks, revisions, team, user } from "~/.server/db/schema";
import { clearContent, seedDemoContent } from "~/.server/db/seed";
import { getStorage } from "~/.server/storage/storage";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";

setUpTestDatabase();

let oldArticleIds: number[] = [];
let oldMemberIds: number[] = [];

beforeAll(async () => {
  await seedDemoContent();
  const [first] = await db().select().from(articles).orderBy(articles.id).limit(1);
  await updateArticle(first.id, { ...first, title: `${first.title} (edited)` }, TEST_ACTOR);
  const draft = await createArticle(
    { title: "Old Draft", img: "", category: "cyber", news: false, priority: false, copy: "<p>Old</p>", state: { status: "draft" } },
    TEST_ACTOR,
  );
  await createPreviewLink("article", draft.id, draft.title, TEST_ACTOR);
  await createStaffAccount("reseed@example.com", "a-long-enough-password");
  const [account] = await db().select({ id: user.id }).from(user).where(eq(user.email, "reseed@example.com"));
  await saveAutosave(account.id, draft.id, { title: "Unsaved words" }, 1);
  oldArticleIds = (await db().select({ id: articles.id }).from(articles)).map((r) => r.id);
  oldMemberIds = (await db().select({ id: team.id }).from(team)).map((r) => r.id);
});

describe("a reseed (npm run db:seed)", () => {
  it("replaces all content, with its revisions, preview links, drafts and pictures, keeping ids new", async () => {
    await clearContent();
    expect(await db().select().from(revisions)).toEqual([]);
    expect(await db().select().from(previewLinks)).toEqual([]);
    expect(await db().select().from(articleAutosaves)).toEqual([]);
    for (const folder of ["team", "articles"] as const) expect(await getStorage().list(folder)).toEqual([]);

    await seedDemoContent();
    const fresh = await db().select({ id: articles.id, title: articles.title }).from(articles);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.some((a) => a.title.endsWith("(edited)") || a.title === "Old Draft")).toBe(false);
    // No new id is an old one: the trail's entries keep naming what they named.
    expect(fresh.filter((a) => oldArticleIds.includes(a.id))).toEqual([]);
    const members = await db().select({ id: team.id }).from(team);
    expect(members.filter((m) => oldMemberIds.includes(m.id))).toEqual([]);
    // A new article's History holds only its own versions.
    for (const a of fresh.slice(0, 3)) {
      const history = await listRevisions("article", a.id);
      expect(history.every((r) => r.item_id === a.id)).toBe(true);
      expect(history.map((r) => (r.fields as { title: string }).title)).not.toContain("Old Draft");
    }
    expect(await db().select().from(articles).where(eq(articles.title, "Old Draft"))).toEqual([]);
  });
});

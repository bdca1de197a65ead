import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contentChanged } from "./content-events";
import { db } from "./client";
import { team } from "./schema";
import { TEST_ACTOR, setUpTestDatabase } from "../../../tests/support/database";
import { createArticle, deleteArticle, getArticleBySlug, listArticlePage, listLatestArticles, updateArticle } from "./articles";
import { getOfficeHours, updateOfficeHours } from "./office-hours";
import { getPageHeaderText, listPageHeaders, updatePageHeader } from "./page-headers";
import {
  createTeamMember,
  deleteTeamMember,
  getTeamMemberBySlug,
  listTeamCards,
  listTeamForAdmin,
  updateTeamMember,
  type TeamMemberInput,
} from "./team";

setUpTestDatabase();

const member = (full_name: string, title: string, AOP: string[] = ["insurance"]): TeamMemberInput => ({
  full_name,
  title,
  email: "x@example.com",
  extension: 100,
  mobile: "",
  desc: "Bio",
  img: "",
  AOP,
  area_details: ["Appeals"],
  staff: [{ name: "A B", title: "Clerk", email: "a@example.com", extension: "1" }],
});

describe("team", () => {
  it("creates members with slugs from the name, distinct for namesakes", async () => {
    const a = await createTeamMember(member("Jane Doe", "Partner"), TEST_ACTOR);
    const b = await createTeamMember(member("Jane Doe", "Associate"), TEST_ACTOR);
    expect(a.slug).toBe("Jane-Doe");
    expect(b.slug).toBe("Jane-Doe-2");
    expect((await getTeamMemberBySlug("Jane-Doe-2"))?.title).toBe("Associate");
    expect((await getTeamMemberBySlug("Jane-Doe"))?.staff).toEqual([
      { name: "A B", title: "Clerk", email: "a@example.com", extension: "1" },
    ]);
  });

  it("lists the public grid in title rank then last name order", async () => {
    await createTeamMember(member("Zed Alpha", "Managing Partner"), TEST_ACTOR);
    await createTeamMember(member("Amy Zulu", "Partner"), TEST_ACTOR);
    await createTeamMember(member("Bob Brown", "Legal Assistant"), TEST_ACTOR);
    await createTeamMember(member("Carl Client", "Client Services Partner"), TEST_ACTOR);
    const names = (await listTeamCards()).map((m) => `${m.title}:${m.full_name}`);
    expect(names.indexOf("Managing Partner:Zed Alpha")).toBe(0);
    expect(names.indexOf("Client Services Partner:Carl Client")).toBe(1);
    expect(names.indexOf("Partner:Jane Doe")).toBeLessThan(names.indexOf("Partner:Amy Zulu"));
    expect(names.at(-1)).toBe("Legal Assistant:Bob Brown");
  });

  it("keeps the public grid until the next content change: a save here or one heard from another process", async () => {
    const before = await listTeamCards();
    expect(await listTeamCards()).toBe(before);
    const added = await createTeamMember(member("Dana Fresh", "Associate"), TEST_ACTOR);
    const afterCreate = await listTeamCards();
    expect(afterCreate.map((m) => m.id)).toContain(added.id);
    await updateTeamMember(added.id, member("Dana Renamed", "Associate"), TEST_ACTOR);
    expect((await listTeamCards()).find((m) => m.id === added.id)?.full_name).toBe("Dana Renamed");
    // Written by another server process: seen once its NOTIFY arrives (content-sync calls contentChanged).
    await db().update(team).set({ title: "Partner" }).where(eq(team.id, added.id));
    contentChanged("team", true);
    expect((await listTeamCards()).find((m) => m.id === added.id)?.title).toBe("Partner");
    await deleteTeamMember(added.id, TEST_ACTOR);
    expect((await listTeamCards()).map((m) => m.id)).not.toContain(added.id);
  });

  it("searches the admin list case-insensitively, sorted by name, treating % literally", async () => {
    const found = (await listTeamForAdmin("jane")).map((m) => m.full_name);
    expect(found).toEqual(["Jane Doe", "Jane Doe"]);
    expect(await listTeamForAdmin("%")).toEqual([]);
    const all = (await listTeamForAdmin()).map((m) => m.full_name.toLowerCase());
    expect(all).toEqual([...all].sort());
  });

  it("updates (including mobile) and moves the slug with the name; deletes", async () => {
    const created = await createTeamMember(member("Old Name", "Associate"), TEST_ACTOR);
    const result = await updateTeamMember(created.id, { ...member("New Name", "Associate"), mobile: "416-555-0000" }, TEST_ACTOR);
    expect(result?.after.slug).toBe("New-Name");
    expect(result?.after.mobile).toBe("416-555-0000");
    expect(await getTeamMemberBySlug("Old-Name")).toBeUndefined();
    expect(await updateTeamMember(999_999, member("X", "Y"), TEST_ACTOR)).toBeUndefined();
    expect((await deleteTeamMember(created.id, TEST_ACTOR))?.id).toBe(created.id);
    expect(await getTeamMemberBySlug("New-Name")).toBeUndefined();
  });
});

describe("articles", () => {
  it("pages in the database, filters by category and news, pinned first when asked", async () => {
    const base = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 14; i++) {
      await createArticle(
        {
          title: `Post ${i}`,
          img: "",
          category: i % 2 ? "Cyber" : "insurance",
          news: i % 3 === 0,
          priority: i === 3,
          copy: "<p>x</p>",
          date: "d",
          created_at: new Date(base + i * 86_400_000),
        },
        TEST_ACTOR,
      );
    }
    const first = await listArticlePage({ filter: "all", page: 1 });
    expect(first.total).toBe(14);
    expect(first.pageCount).toBe(3);
    expect(first.items.map((a) => a.title)).toEqual(["Post 13", "Post 12", "Post 11", "Post 10", "Post 9", "Post 8"]);
    const last = await listArticlePage({ filter: "all", page: 3 });
    expect(last.items.map((a) => a.title)).toEqual(["Post 1", "Post 0"]);
    const middle = await listArticlePage({ filter: "all", page: 2 });
    expect(middle.items.map((a) => a.title)).toEqual(["Post 7", "Post 6", "Post 5", "Post 4", "Post 3", "Post 2"]);
    expect((await listArticlePage({ filter: "all", page: 99 })).page).toBe(3);

    const cyber = await listArticlePage({ filter: "cyber", page: 1 });
    expect(cyber.total).toBe(7);
    expect(cyber.items.every((a) => a.category === "Cyber")).toBe(true);

    const news = await listArticlePage({ filter: "news", page: 1, pinnedFirst: true });
    expect(news.items.map((a) => a.title)).toEqual(["Post 3", "Post 12", "Post 9", "Post 6", "Post 0"]);

    const pinnedCyber = await listArticlePage({ filter: "cyber", page: 2, pinnedFirst: true });
    expect(pinnedCyber.items.map((a) => a.title)).toEqual(["Post 1"]);

    expect((await listLatestArticles()).length).toBe(6);
  });

  it("forces pin off when not news, slugs titles without punctuation, updates and deletes", async () => {
    const a = await createArticle(
      { title: "What's new: Cyber, 2025?", img: "", category: "cyber", news: false, priority: true, copy: "", date: "d" },
      TEST_ACTOR,
    );
    expect(a.priority).toBe(false);
    expect(a.slug).toBe("Whats-new-Cyber-2025");
    const updated = await updateArticle(
      a.id,
      { title: "Renamed", img: "", category: "cyber", news: true, priority: true, copy: "<p>b</p>" },
      TEST_ACTOR,
    );
    expect(updated?.after.slug).toBe("Renamed");
    expect(updated?.after.priority).toBe(true);
    expect((await getArticleBySlug("Renamed"))?.copy).toBe("<p>b</p>");
    await deleteArticle(a.id, TEST_ACTOR);
    expect(await getArticleBySlug("Renamed")).toBeUndefined();
  });
});

describe("headers and hours", () => {
  it("reads defaults, then saved values", async () => {
    expect(await getOfficeHours()).toEqual({ start_time: "9:00", end_time: "5:00" });
    await updateOfficeHours({ start_time: "8:30", end_time: "6:00" }, TEST_ACTOR);
    expect(await getOfficeHours()).toEqual({ start_time: "8:30", end_time: "6:00" });
    expect(await getPageHeaderText("team")).toBe("");
    await updatePageHeader("team", "Meet us", TEST_ACTOR);
    await updatePageHeader("team", "Meet the team", TEST_ACTOR);
    expect(await getPageHeaderText("team")).toBe("Meet the team");
    const all = await listPageHeaders();
    expect(all.map((h) => h.name)).toEqual(["team", "news", "insurance", "construction", "cyber"]);
  });
});

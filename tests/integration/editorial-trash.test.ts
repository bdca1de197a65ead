/**
 * The Trash: a delete moves an item there (gone from the public site, URL and
 * picture kept), restore brings it back as it was, "Delete permanently" asks
 * twice and removes row and pictures, and the sweep does so after 30 days.
 */
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createArticle, getArticleById, getArticleBySlug } from "~/.server/db/articles";
import { articles, auditLog } from "~/.server/db/schema";
import { listTrash, sweepTrash } from "~/.server/db/trash";
import { createTeamMember, deleteTeamMember, getTeamMemberBySlug } from "~/.server/db/team";
import { saveImage } from "~/.server/pictures/images";
import { getStorage } from "~/.server/storage/storage";
import * as articlesRoute from "~/routes/admin/articles";
import * as trashRoute from "~/routes/admin/trash";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { callRoute } from "../support/route-call";
import { signedIn } from "../support/staff-session";
import { associateInput } from "../support/team";

const state = setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
let cookie = "";
let jpeg: Buffer;

beforeAll(async () => {
  cookie = await signedIn("trash@example.com", "owner", "10.9.0.3");
  jpeg = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#456" } })
    .jpeg()
    .toBuffer();
});

const post = (path: string, body: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(body), headers: { cookie, origin: ORIGIN } });
const pictureFiles = async (img: string) => (await getStorage().list("articles")).filter((k) => k.includes(img.replace(/\.[a-z]+$/, "")));

describe("Trash", () => {
  it("delete → Trash (picture kept) → restore with URL and picture → delete permanently removes row and pictures", async () => {
    const img = await saveImage("articles", new Uint8Array(jpeg));
    const a = await createArticle(
      { title: "Trash Me", img, category: "cyber", news: false, priority: false, copy: "<p>x</p>" },
      TEST_ACTOR,
    );
    expect(await getArticleBySlug("Trash-Me")).toBeDefined();

    const deleted = await callRoute(articlesRoute.action, post("/dashboard/articles", { intent: "delete", id: String(a.id) }));
    expect(deleted).toMatchObject({ status: 302, location: "/dashboard/articles" });
    expect(await getArticleBySlug("Trash-Me")).toBeUndefined();
    expect(await pictureFiles(img)).not.toHaveLength(0);
    const page = (await callRoute(trashRoute.loader, new Request(`${ORIGIN}/dashboard/trash`, { headers: { cookie } }))).data as {
      items: { label: string; key: string }[];
    };
    expect(page.items.map((i) => i.label)).toContain("Trash Me");

    const restored = await callRoute(trashRoute.action, post("/dashboard/trash", { intent: "restore", kind: "article", id: String(a.id) }));
    expect(restored).toMatchObject({ status: 302, location: "/dashboard/trash" });
    const back = (await getArticleBySlug("Trash-Me"))!;
    expect(back).toMatchObject({ id: a.id, slug: "Trash-Me", img, status: "published" });

    await callRoute(articlesRoute.action, post("/dashboard/articles", { intent: "delete", id: String(a.id) }));
    // The second confirmation is asked for before anything is removed.
    const asking = (
      await callRoute(trashRoute.loader, new Request(`${ORIGIN}/dashboard/trash?confirm=article-${a.id}`, { headers: { cookie } }))
    ).data as { confirm: string };
    expect(asking.confirm).toBe(`article-${a.id}`);
    const purged = await callRoute(trashRoute.action, post("/dashboard/trash", { intent: "purge", kind: "article", id: String(a.id) }));
    expect(purged).toMatchObject({ status: 302 });
    expect(await getArticleById(a.id, { withTrashed: true })).toBeUndefined();
    expect(await pictureFiles(img)).toHaveLength(0);
    const trail = await state.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.item_id, String(a.id)));
    // Created published: recorded as a publish.
    expect(trail.map((e) => e.action)).toEqual(expect.arrayContaining(["publish", "delete", "restore", "purge"]));
  });

  it("the sweep removes only what has been in the Trash for 30 days", async () => {
    const old = await createTeamMember(associateInput("Long Gone", "gone@example.com", 1), TEST_ACTOR);
    const recent = await createTeamMember(associateInput("Just Left", "left@example.com", 2), TEST_ACTOR);
    await deleteTeamMember(old.id, TEST_ACTOR);
    await deleteTeamMember(recent.id, TEST_ACTOR);
    expect(await getTeamMemberBySlug("Long-Gone")).toBeUndefined();
    const in31Days = new Date(Date.now() + 31 * 86_400_000);
    const in29Days = new Date(Date.now() + 29 * 86_400_000);
    expect(await sweepTrash(TEST_ACTOR, in29Days)).toBe(0);
    // 31 days on, both are due.
    expect(await sweepTrash(TEST_ACTOR, in31Days)).toBe(2);
    expect((await listTrash()).map((i) => i.label)).toEqual([]);
    expect(await state.database.db.select().from(articles).where(eq(articles.title, "Long Gone"))).toEqual([]);
  });
});

/**
 * The Activity screen's loader: newest first, 50 a page (paged in the
 * database), filters by person, kind of item, action and date range (the
 * firm's local days), and links to items that still exist.
 */
import { testContext, guarded } from "../support/route-call";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { db } from "~/.server/db/client";
import { auditLog } from "~/.server/db/schema";
import { createArticle, deleteArticle, updateArticle } from "~/.server/db/articles";
import { createEnquiry, deleteEnquiry, updateEnquiry } from "~/.server/db/enquiries";
import { createTeamMember, deleteTeamMember } from "~/.server/db/team";
import { purgeFromTrash } from "~/.server/db/trash";
import { signIn } from "~/.server/auth/sign-in";
import * as activity from "~/routes/admin/activity";
import { setUpTestDatabase } from "../support/database";
import { associateInput } from "../support/team";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "192.0.2.9";
const context = testContext(CLIENT_IP);
let cookie = "";
let ownerId = "";
let articleId = 0;
const boss = () => ({ userId: ownerId, label: "boss@example.com", ip: "192.0.2.1" });

type Page = Awaited<ReturnType<typeof activity.loader>>;
async function open(query = ""): Promise<Page> {
  return guarded(activity.loader, {
    request: new Request(`${ORIGIN}/dashboard/activity${query}`, { headers: { cookie } }),
    params: {},
    context,
  });
}

beforeAll(async () => {
  await createStaffAccount("boss@example.com", "a-long-enough-password", "Bea Boss", "owner");
  const ok = await signIn(new Request(`${ORIGIN}/admin`), "boss@example.com", "a-long-enough-password", "192.0.2.1");
  if (ok.ok !== true) throw new Error("sign-in failed");
  cookie = ok.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const result = await db().execute(sql`select id from "user" where email = 'boss@example.com'`);
  ownerId = (result as { rows: { id: string }[] }).rows[0].id;
  const actor = { userId: ownerId, label: "boss@example.com", ip: "192.0.2.1" };
  const article = await createArticle(
    { title: "Breach notice", img: "", category: "cyber", news: true, priority: false, copy: "<p>x</p>", date: "Monday, March 3, 2025" },
    actor,
  );
  articleId = article.id;
  // 120 older entries from the system, spread over two days in January (Toronto time).
  // (written as the trail would have them, at past times: 12:00 on Jan 10 in Toronto, one every 10 minutes)
  const noon = Date.parse("2025-01-10T17:00:00Z");
  await db()
    .insert(auditLog)
    .values(
      Array.from({ length: 120 }, (_, i) => ({
        at: new Date(noon + i * 10 * 60_000),
        actor_id: null,
        actor_label: "system",
        ip: "",
        action: "update",
        item_type: "hours",
        item_id: "hours",
        item_label: `Office hours ${i}`,
      })),
    );
});

describe("Activity", () => {
  it("lists the newest first, 50 a page, with the person's name and a link to the item", async () => {
    const first = await open();
    expect(first.total).toBe(123); // 120 + the owner's account being created + the owner's sign-in + the article
    expect(first.pageCount).toBe(3);
    expect(first.entries).toHaveLength(50);
    // (created published: recorded as a publish)
    expect(first.entries[0]).toMatchObject({
      action: "publish",
      itemType: "article",
      actorName: "Bea Boss",
      href: `/dashboard/articles/${articleId}/edit`,
    });
    const times = first.entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const third = await open("?page=3");
    expect(third.entries).toHaveLength(23);
    expect(third.entries.at(-1)!.itemLabel).toBe("Office hours 0");
    // Out-of-range pages show the last page.
    expect((await open("?page=99")).page).toBe(3);
  });

  it("filters by person, kind of item, action and date range", async () => {
    expect((await open(`?person=${ownerId}`)).total).toBe(2);
    // The account's creation was made by the system (a script or start-up), not by a person.
    expect((await open("?person=system")).total).toBe(121);
    expect((await open("?item=article")).total).toBe(1);
    expect((await open("?action=sign-in")).entries.map((e) => e.actorLabel)).toEqual(["boss@example.com"]);
    // From/To are whole local days in Toronto.
    // 12:00 to 23:50 on Jan 10 is 72 entries; the other 48 fall on Jan 11 (local time, not UTC).
    expect((await open("?from=2025-01-10&to=2025-01-10")).total).toBe(72);
    expect((await open("?from=2025-01-11&to=2025-01-11")).total).toBe(48);
    expect((await open("?from=2025-01-11")).total).toBe(48 + 3);
    expect((await open("?to=2025-01-10")).total).toBe(72);
    // Unknown filter values are ignored, not errors.
    const junk = await open("?person=nobody&item=planet&action=explode&from=2025-02-30&page=-4");
    expect(junk.total).toBe(123);
    expect(junk.values).toEqual({ person: "", item: "", action: "", from: "", to: "" });
  });
  it("links a trashed article or team member to the Trash, a purged one nowhere, an enquiry to its page while it exists", async () => {
    const draft = { img: "", category: "cyber", news: false, priority: false, copy: "<p>y</p>" };
    const article = await createArticle({ ...draft, title: "Soon Trashed" }, boss());
    await deleteArticle(article.id, boss());
    const member = await createTeamMember(associateInput("Gone Person", "gone@example.com", 1), boss());
    await deleteTeamMember(member.id, boss());
    const linksOf = async (item: string, id: number) =>
      (await open(`?item=${item}`)).entries.filter((e) => e.itemId === String(id)).map((e) => [e.action, e.href]);
    // The edit pages of deleted items answer 404: the entries point to the Trash, where they can be restored.
    expect(await linksOf("article", article.id)).toEqual([
      ["delete", "/dashboard/trash"],
      ["publish", "/dashboard/trash"],
    ]);
    expect(await linksOf("team", member.id)).toEqual([
      ["delete", "/dashboard/trash"],
      ["create", "/dashboard/trash"],
    ]);
    await purgeFromTrash("article", article.id, boss());
    expect((await linksOf("article", article.id)).map(([, href]) => href)).toEqual([null, null, null]);

    const enquiry = await createEnquiry({
      name: "Dana Claims",
      email: "dana@example.com",
      phone: "",
      practice_area: "cyber",
      message: "We need help.",
    });
    await updateEnquiry(enquiry.id, { state: "in_progress", staff_note: "Called back." }, boss());
    expect(await linksOf("enquiry", enquiry.id)).toEqual([["update", `/dashboard/enquiries/${enquiry.id}`]]);
    await deleteEnquiry(enquiry.id, boss());
    expect(await linksOf("enquiry", enquiry.id)).toEqual([
      ["delete", null],
      ["update", null],
    ]);
  });

  it("an article published by hand appears under the publish filter", async () => {
    const input = { title: "Written Slowly", img: "", category: "cyber", news: false, priority: false, copy: "<p>z</p>" };
    const article = await createArticle({ ...input, state: { status: "draft" } }, boss());
    await updateArticle(article.id, { ...input, state: { status: "published" } }, boss());
    const published = await open(`?action=publish&person=${ownerId}`);
    expect(published.entries[0]).toMatchObject({
      action: "publish",
      itemType: "article",
      itemId: String(article.id),
      actorName: "Bea Boss",
      href: `/dashboard/articles/${article.id}/edit`,
    });
  });

  it("failed sign-ins and the lockout of an existing account are found under that person; an unknown name stays under system", async () => {
    for (let i = 0; i < 5; i++)
      await signIn(new Request(`${ORIGIN}/admin`), "boss@example.com", `wrong-password-${i}`, `192.0.2.${100 + i}`);
    await signIn(new Request(`${ORIGIN}/admin`), "stranger@example.com", "wrong-password-x", "192.0.2.120");
    const failures = await open(`?person=${ownerId}&action=failed-sign-in`);
    expect(failures.total).toBe(5);
    expect(failures.entries[0]).toMatchObject({
      actorLabel: "boss@example.com",
      actorName: "Bea Boss",
      itemType: "session",
      href: `/dashboard/staff#staff-${ownerId}`,
    });
    expect((await open(`?person=${ownerId}&action=lockout`)).total).toBe(1);
    expect((await open("?person=system&action=failed-sign-in")).entries.map((e) => [e.actorLabel, e.href])).toEqual([
      ["stranger@example.com", null],
    ]);
  });
});

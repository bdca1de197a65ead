/**
 * Revisions (every save kept, last 50, History diff, Restore as a new
 * version) and the two-people-editing check (version number).
 */
import { testContext, callRoute } from "../support/route-call";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { createArticle, getArticleById, updateArticle } from "~/.server/db/articles";
import { EditConflict, listRevisions, REVISIONS_KEPT } from "~/.server/db/revisions";
import { signIn } from "~/.server/auth/sign-in";
import * as articleEdit from "~/routes/admin/article-edit";
import * as history from "~/routes/admin/history";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";

setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "127.0.0.1";
const context = testContext(CLIENT_IP);
const cookies: Record<string, string> = {};

beforeAll(async () => {
  for (const who of ["alice", "bob"]) {
    await createStaffAccount(`${who}@example.com`, "a-long-enough-password");
    const ok = await signIn(new Request(`${ORIGIN}/admin`), `${who}@example.com`, "a-long-enough-password", "10.9.0.4");
    if (!ok.ok) throw new Error("sign-in failed");
    cookies[who] = ok.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }
});

/** A loader or action called as the server would, from the staff member's address. */
const run = (fn: (args: never) => Promise<unknown>, request: Request, params: Record<string, string> = {}) =>
  callRoute(fn, request, params, context);
const base = { img: "", category: "cyber", news: false, priority: false };

describe("revisions", () => {
  it("every save keeps a revision; History shows the change; Restore makes a new version", async () => {
    const a = await createArticle({ ...base, title: "Breach Notice", copy: "<p>First wording of the notice.</p>" }, TEST_ACTOR);
    await updateArticle(a.id, { ...base, title: "Breach Notice", copy: "<p>Second wording of the notice.</p>" }, TEST_ACTOR);
    await updateArticle(a.id, { ...base, title: "Breach Notice", copy: "<p>Third wording of the notice.</p>" }, TEST_ACTOR);
    const list = await listRevisions("article", a.id);
    expect(list.map((r) => r.version)).toEqual([3, 2, 1]);
    expect(list[2].fields).toMatchObject({ title: "Breach Notice", copy: "<p>First wording of the notice.</p>", status: "published" });

    const page = await run(
      history.loader,
      new Request(`${ORIGIN}/dashboard/history/article/${a.id}?rev=${list[1].id}`, { headers: { cookie: cookies.alice } }),
      { kind: "article", id: String(a.id) },
    );
    const changes = page.data.changes as { field: string; parts: { value: string; added?: boolean; removed?: boolean }[] }[];
    expect(changes).toHaveLength(1);
    expect(changes[0].field).toBe("copy");
    expect(changes[0].parts.filter((p) => p.removed).map((p) => p.value.trim())).toEqual(["First"]);
    expect(changes[0].parts.filter((p) => p.added).map((p) => p.value.trim())).toEqual(["Second"]);

    const restored = await run(
      history.action,
      new Request(`${ORIGIN}/dashboard/history/article/${a.id}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "restore", revision: String(list[2].id) }),
        headers: { cookie: cookies.alice, origin: ORIGIN },
      }),
      { kind: "article", id: String(a.id) },
    );
    expect(restored).toMatchObject({ status: 302, location: `/dashboard/history/article/${a.id}` });
    const now = (await getArticleById(a.id))!;
    expect(now.copy).toBe("<p>First wording of the notice.</p>");
    expect(now.version).toBe(4);
    expect((await listRevisions("article", a.id)).map((r) => r.version)).toEqual([4, 3, 2, 1]);
    expect((await listRevisions("article", a.id))[0].actor_label).toBe("alice@example.com");
  });

  it(`keeps the last ${REVISIONS_KEPT} revisions of an item`, async () => {
    const a = await createArticle({ ...base, title: "Many Saves", copy: "<p>0</p>" }, TEST_ACTOR);
    for (let i = 1; i <= REVISIONS_KEPT + 5; i++)
      await updateArticle(a.id, { ...base, title: "Many Saves", copy: `<p>${i}</p>` }, TEST_ACTOR);
    const list = await listRevisions("article", a.id);
    expect(list).toHaveLength(REVISIONS_KEPT);
    expect(list[0].version).toBe(REVISIONS_KEPT + 6);
    expect(list.at(-1)!.version).toBe(7);
  });
});

describe("two people editing", () => {
  it("the second save is refused with who saved in between and when, and keeps what was typed", async () => {
    const a = await createArticle({ ...base, title: "Shared Draft", copy: "<p>Start</p>" }, TEST_ACTOR);
    const form = (who: string, copy: string) => {
      const body = new FormData();
      for (const [k, v] of Object.entries({
        title: "Shared Draft",
        category: "cyber",
        news: "no",
        copy,
        status: "published",
        version: String(a.version),
      }))
        body.set(k, v);
      return new Request(`${ORIGIN}/dashboard/articles/${a.id}/edit`, {
        method: "POST",
        body,
        headers: { cookie: cookies[who], origin: ORIGIN },
      });
    };
    // Both opened version 1; Alice saves first.
    const first = await run(articleEdit.action, form("alice", "<p>Alice's text</p>"), { id: String(a.id) });
    expect(first.status).toBe(302);
    const second = await run(articleEdit.action, form("bob", "<p>Bob's text</p>"), { id: String(a.id) });
    expect(second.status).toBe(409);
    const status = second.data.status as { text: string };
    expect(status.text).toMatch(/^Not saved: alice@example\.com saved this on .+ (EDT|EST) while you were editing\./);
    expect((second.data.values as { copy: string }).copy).toBe("<p>Bob's text</p>");
    expect(second.data.conflict).toBe(true);
    expect((await getArticleById(a.id))!.copy).toBe("<p>Alice's text</p>");
    await expect(updateArticle(a.id, { ...base, title: "Shared Draft", copy: "x", expectedVersion: 1 }, TEST_ACTOR)).rejects.toBeInstanceOf(
      EditConflict,
    );
  });
});

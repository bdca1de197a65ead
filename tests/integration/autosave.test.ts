/**
 * Drafts kept while writing (issue 12), on PGlite (or PostgreSQL with
 * TEST_DATABASE_URL): the autosave route keeps one working copy per person
 * and article (the new-article form too) without creating or changing an
 * article (a published one stays as it is), the forms' loaders hand it back,
 * a successful save and Discard remove it; refusals are JSON (400, 401, 404,
 * 413; never a 500); a save whose session ended answers 401 with the
 * status message instead of the error page; the sign-in page returns to the
 * form; old copies are pruned.
 */
import { rowsOf } from "~/.server/db/rows";
import { testContext, guarded } from "../support/route-call";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { AUTOSAVE_DAYS, getAutosave, pruneAutosaves, saveAutosave } from "~/.server/db/autosaves";
import { countArticles, createArticle, getArticleById } from "~/.server/db/articles";
import { db } from "~/.server/db/client";
import { articleAutosaves } from "~/.server/db/schema";
import { signIn } from "~/.server/auth/sign-in";
import { AUTOSAVE_TEXT } from "~/lib/forms/autosave";
import { MSG } from "~/lib/forms/messages";
import * as articleEdit from "~/routes/admin/article-edit";
import * as articleNew from "~/routes/admin/article-new";
import * as autosaveRoute from "~/routes/admin/article-autosave";
import * as login from "~/routes/admin/login";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "127.0.0.1";
const context = testContext(CLIENT_IP);
let cookie = "";
let otherCookie = "";
let userId = "";

async function session(email: string) {
  await createStaffAccount(email, "a-long-enough-password", "Writer", "editor");
  const ok = await signIn(new Request(`${ORIGIN}/admin`), email, "a-long-enough-password", "10.9.0.8");
  if (!ok.ok) throw new Error("sign-in failed");
  return ok.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

beforeAll(async () => {
  cookie = await session("writer@example.com");
  otherCookie = await session("other-writer@example.com");
  const rows = await db().execute(sql`select id from "user" where email = 'writer@example.com'`);
  userId = rowsOf<{ id: string }>(rows)[0].id;
});

function autosave(fields: Record<string, string>, headers: Record<string, string> = { cookie }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return new Request(`${ORIGIN}/dashboard/articles/autosave`, { method: "POST", body: fd, headers: { origin: ORIGIN, ...headers } });
}

async function answer(request: Request): Promise<{ status: number; body: Record<string, unknown> }> {
  let res: unknown;
  try {
    res = await guarded(autosaveRoute.action, { request, params: {}, context });
  } catch (thrown) {
    res = thrown;
  }
  const r = res as Response;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

type LoaderDraft = {
  draft: { userId: string; autosave: { values: Record<string, unknown>; baseVersion: number | null; savedAt: string } | null };
};

async function newFormDraft(c = cookie) {
  return (
    (await guarded(articleNew.loader, {
      request: new Request(`${ORIGIN}/dashboard/articles/new`, { headers: { cookie: c } }),
      params: {},
      context,
    })) as LoaderDraft
  ).draft;
}

async function editFormDraft(id: number, c = cookie) {
  return (
    (await guarded(articleEdit.loader, {
      request: new Request(`${ORIGIN}/dashboard/articles/${id}/edit`, { headers: { cookie: c } }),
      params: { id: String(id) },
      context,
    })) as LoaderDraft
  ).draft;
}

const autosaveCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(articleAutosaves)
  )[0].n;

describe("the new-article form", () => {
  it("keeps one working copy per person, updated in place: no article is created, however often it saves", async () => {
    const articles = await countArticles();
    const first = await answer(
      autosave({ intent: "save", article: "new", values: JSON.stringify({ title: "Half", copy: "<p>Half a thought</p>" }) }),
    );
    expect(first.status).toBe(200);
    expect(Date.parse(first.body.savedAt as string)).toBeGreaterThan(Date.now() - 60_000);
    for (let i = 0; i < 3; i++) {
      const again = await answer(
        autosave({
          intent: "save",
          article: "new",
          values: JSON.stringify({ title: `Whole ${i}`, copy: "<p>A whole thought</p>", news: "yes", authors: ["1", "2"] }),
        }),
      );
      expect(again.status).toBe(200);
    }
    expect(await countArticles()).toBe(articles);
    expect(await autosaveCount()).toBe(1);
    const draft = await newFormDraft();
    expect(draft.userId).toBe(userId);
    expect(draft.autosave).toMatchObject({
      values: { title: "Whole 2", copy: "<p>A whole thought</p>", news: "yes", authors: ["1", "2"] },
      baseVersion: null,
    });
    // Another person's form does not see it.
    expect((await newFormDraft(otherCookie)).autosave).toBeNull();
  });

  it("sanitises the kept body like a saved one", async () => {
    await answer(
      autosave({
        intent: "save",
        article: "new",
        values: JSON.stringify({
          title: "X",
          copy: '<p onclick="alert(1)">Hi</p><script>alert(1)</script><img src="x" onerror="alert(1)">',
        }),
      }),
    );
    expect((await newFormDraft()).autosave?.values.copy).toBe("<p>Hi</p>");
  });

  it("is removed by the first successful save (which creates the article once)", async () => {
    const articles = await countArticles();
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      title: "Autosaved then added",
      category: "cyber",
      news: "no",
      status: "draft",
      copy: "<p>Body</p>",
    }))
      fd.append(k, v);
    fd.append("photo", new Blob([new Uint8Array(await tinyJpeg())], { type: "image/jpeg" }), "p.jpg");
    const res = (await guarded(articleNew.action, {
      request: new Request(`${ORIGIN}/dashboard/articles/new`, { method: "POST", body: fd, headers: { cookie, origin: ORIGIN } }),
      params: {},
      context,
    })) as Response;
    expect(res.status).toBe(302);
    expect(await countArticles()).toBe(articles + 1);
    expect((await newFormDraft()).autosave).toBeNull();
  });
});

describe("an existing article", () => {
  it("keeps the working copy apart: the published article and its version do not change; the edit form gets it back", async () => {
    const article = await createArticle(
      {
        title: "Live article",
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: "<p>Live text</p>",
        state: { status: "published" },
      },
      TEST_ACTOR,
    );
    const saved = await answer(
      autosave({
        intent: "save",
        article: String(article.id),
        version: String(article.version),
        values: JSON.stringify({ title: "Live article", copy: "<p>Work in progress</p>" }),
      }),
    );
    expect(saved.status).toBe(200);
    const after = await getArticleById(article.id);
    expect(after).toMatchObject({ copy: "<p>Live text</p>", version: article.version, status: "published" });
    const draft = await editFormDraft(article.id);
    expect(draft.autosave).toMatchObject({ values: { copy: "<p>Work in progress</p>" }, baseVersion: article.version });
    expect((await editFormDraft(article.id, otherCookie)).autosave).toBeNull();
    // The new-article form's copy is another one.
    await answer(autosave({ intent: "save", article: "new", values: JSON.stringify({ title: "Separate" }) }));
    expect((await editFormDraft(article.id)).autosave?.values.title).toBe("Live article");

    // Discard removes only this one.
    expect(await answer(autosave({ intent: "discard", article: String(article.id) }))).toEqual({ status: 200, body: { discarded: true } });
    expect((await editFormDraft(article.id)).autosave).toBeNull();
    expect((await newFormDraft()).autosave?.values.title).toBe("Separate");
  });

  it("is removed by a successful save of the article", async () => {
    const article = await createArticle(
      { title: "Saved over", img: "", category: "cyber", news: false, priority: false, copy: "<p>One</p>", state: { status: "published" } },
      TEST_ACTOR,
    );
    await answer(autosave({ intent: "save", article: String(article.id), version: "1", values: JSON.stringify({ copy: "<p>Two</p>" }) }));
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      title: "Saved over",
      category: "cyber",
      news: "no",
      status: "published",
      copy: "<p>Two</p>",
      version: String(article.version),
    }))
      fd.append(k, v);
    const res = (await guarded(articleEdit.action, {
      request: new Request(`${ORIGIN}/dashboard/articles/${article.id}/edit`, {
        method: "POST",
        body: fd,
        headers: { cookie, origin: ORIGIN },
      }),
      params: { id: String(article.id) },
      context,
    })) as Response;
    expect(res.status).toBe(302);
    expect((await getArticleById(article.id))!.copy).toBe("<p>Two</p>");
    expect(await getAutosave(userId, article.id)).toBeUndefined();
  });

  it("goes with the article when it is purged (cascade)", async () => {
    const article = await createArticle(
      { title: "Purged draft", img: "", category: "cyber", news: false, priority: false, copy: "<p>x</p>" },
      TEST_ACTOR,
    );
    await saveAutosave(userId, article.id, { copy: "<p>y</p>" }, 1);
    const { deleteArticle } = await import("~/.server/db/articles");
    const { purgeFromTrash } = await import("~/.server/db/trash");
    await deleteArticle(article.id, TEST_ACTOR);
    await purgeFromTrash("article", article.id, TEST_ACTOR);
    expect(await db().select().from(articleAutosaves).where(eq(articleAutosaves.article_id, article.id))).toEqual([]);
  });
});

describe("refusals", () => {
  it("answers 401 in JSON without a session (nothing kept), and its loader sends a visitor to sign in", async () => {
    const before = await autosaveCount();
    expect(await answer(autosave({ intent: "save", article: "new", values: "{}" }, {}))).toEqual({
      status: 401,
      body: { error: AUTOSAVE_TEXT.sessionEnded },
    });
    expect(
      await answer(autosave({ intent: "save", article: "new", values: "{}" }, { cookie: "firm.session_token=forged.value" })),
    ).toMatchObject({ status: 401 });
    expect(await autosaveCount()).toBe(before);
    let thrown: unknown;
    try {
      await guarded(autosaveRoute.loader, { request: new Request(`${ORIGIN}/dashboard/articles/autosave`), params: {}, context });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Response).headers.get("Location")).toBe(`/admin?redirectTo=${encodeURIComponent("/dashboard/articles/autosave")}`);
  });

  it("answers 400 for a bad intent, slot or values, 404 for an article that does not exist, 413 when too large", async () => {
    const bad = [
      { intent: "publish", article: "new", values: "{}" },
      { intent: "save", article: "0", values: "{}" },
      { intent: "save", article: "abc", values: "{}" },
      { intent: "save", article: "new", values: "not json" },
      { intent: "save", article: "new", values: JSON.stringify({ "Bad Name": "x" }) },
      { intent: "save", article: "new", values: JSON.stringify({ title: { nested: true } }) },
      { intent: "save", article: "new", values: JSON.stringify({ title: "x".repeat(6_000) }) },
      { intent: "save", article: "new", values: JSON.stringify({ copy: "a\u0000b" }) },
    ];
    for (const fields of bad)
      expect(await answer(autosave(fields)), JSON.stringify(fields).slice(0, 80)).toEqual({
        status: 400,
        body: { error: MSG.unreadableForm },
      });
    expect(await answer(autosave({ intent: "save", article: "999999", values: "{}" }))).toEqual({
      status: 404,
      body: { error: AUTOSAVE_TEXT.notFound },
    });
    const big = new Request(`${ORIGIN}/dashboard/articles/autosave`, {
      method: "POST",
      body: "x",
      headers: { cookie, origin: ORIGIN, "content-type": "multipart/form-data; boundary=x", "content-length": String(3 * 1024 * 1024) },
    });
    expect(await answer(big)).toEqual({ status: 413, body: { error: MSG.tooLarge } });
  });
});

describe("a session that ends while writing", () => {
  it("a save answers 401 with the status message (not the error page), nothing written; the sign-in page returns to the form", async () => {
    const article = await createArticle(
      {
        title: "Expired session",
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: "<p>Before</p>",
        state: { status: "published" },
      },
      TEST_ACTOR,
    );
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      title: "Expired session",
      category: "cyber",
      news: "no",
      status: "published",
      copy: "<p>Typed while signed out</p>",
      version: String(article.version),
    }))
      fd.append(k, v);
    const res = (await guarded(articleEdit.action, {
      request: new Request(`${ORIGIN}/dashboard/articles/${article.id}/edit`, { method: "POST", body: fd, headers: { origin: ORIGIN } }),
      params: { id: String(article.id) },
      context,
    })) as {
      data: { status: { text: string }; sessionEnded: boolean };
      init: { status: number };
    };
    expect(res.init.status).toBe(401);
    expect(res.data).toEqual({
      status: { tone: "error", text: "Your session has ended. Sign in again; nothing was saved." },
      sessionEnded: true,
    });
    expect((await getArticleById(article.id))!.copy).toBe("<p>Before</p>");

    const created = (await guarded(articleNew.action, {
      request: new Request(`${ORIGIN}/dashboard/articles/new`, { method: "POST", body: new FormData(), headers: { origin: ORIGIN } }),
      params: {},
      context,
    })) as { init: { status: number } };
    expect(created.init.status).toBe(401);

    // /admin?redirectTo=… keeps a same-site path (and refuses another site).
    const page = (await guarded(login.loader, {
      request: new Request(`${ORIGIN}/admin?redirectTo=${encodeURIComponent(`/dashboard/articles/${article.id}/edit`)}`),
      params: {},
      context,
    })) as { data: { redirectTo: string } };
    expect(page.data.redirectTo).toBe(`/dashboard/articles/${article.id}/edit`);
    const away = (await guarded(login.loader, {
      request: new Request(`${ORIGIN}/admin?redirectTo=${encodeURIComponent("//evil.example/x")}`),
      params: {},
      context,
    })) as { data: { redirectTo: string } };
    expect(away.data.redirectTo).toBe("/dashboard");
    // Signed in again, the sign-in page goes straight back to the form.
    let back: unknown;
    try {
      await guarded(login.loader, {
        request: new Request(`${ORIGIN}/admin?redirectTo=${encodeURIComponent("/dashboard/articles/new")}`, { headers: { cookie } }),
        params: {},
        context,
      });
    } catch (thrown) {
      back = thrown;
    }
    expect((back as Response).headers.get("Location")).toBe("/dashboard/articles/new");
  });
});

describe("old working copies", () => {
  it(`are pruned after ${AUTOSAVE_DAYS} days`, async () => {
    await saveAutosave(userId, null, { title: "Old" }, null);
    await db()
      .update(articleAutosaves)
      .set({ saved_at: new Date(Date.now() - (AUTOSAVE_DAYS + 1) * 86_400_000) });
    expect(await pruneAutosaves()).toBeGreaterThanOrEqual(1);
    expect(await autosaveCount()).toBe(0);
  });
});

async function tinyJpeg() {
  const sharp = (await import("sharp")).default;
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "#345" } })
    .jpeg()
    .toBuffer();
}

/**
 * Staff preview of drafts and hidden members (the public page's own render,
 * banner, noindex, private/no-store), and share-a-preview links: work signed
 * out, show the latest saved version, expire after 7 days, can be revoked.
 */
import { testContext, callRoute } from "../support/route-call";
import { beforeAll, describe, expect, it } from "vitest";
import { createArticle, updateArticle } from "~/.server/db/articles";
import { createPreviewLink, resolvePreviewLink } from "~/.server/db/previews";
import { createTeamMember } from "~/.server/db/team";
import { PREVIEW_BANNER } from "~/.server/content/preview";
import { isCacheable } from "../support/preview-cache";
import * as articleEdit from "~/routes/admin/article-edit";
import * as lawyerRoute from "~/routes/public/lawyer";
import * as postRoute from "~/routes/public/post";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { memberInput } from "../support/team";
import { signedIn } from "../support/staff-session";

setUpTestDatabase();
const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "127.0.0.1";
const context = testContext(CLIENT_IP);
let cookie = "";
let draftId = 0;

beforeAll(async () => {
  cookie = await signedIn("preview@example.com", "owner", "10.9.0.2");
  draftId = (
    await createArticle(
      {
        title: "Draft For Review",
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: "<p>First wording</p>",
        state: { status: "draft" },
      },
      TEST_ACTOR,
    )
  ).id;
  await createTeamMember(
    {
      ...memberInput("New Hire", {
        title: "Associate",
        email: "hire@example.com",
        extension: 120,
        desc: "Joins soon",
        AOP: [],
      }),
      visibility: { visible: false, visibleFrom: null, hiddenFrom: null },
    },
    TEST_ACTOR,
  );
});

/** A loader called as the server would, for `url` on this site. */
const run = (fn: (args: never) => Promise<unknown>, url: string, params: Record<string, string>, init: RequestInit = {}) =>
  callRoute(fn, new Request(`${ORIGIN}${url}`, init), params, context);

describe("staff preview", () => {
  it("shows a draft to staff with the banner and no-store; visitors are sent to sign in; the public URL stays 404", async () => {
    const staff = await run(postRoute.loader, "/preview/post/Draft-For-Review", { slug: "Draft-For-Review" }, { headers: { cookie } });
    expect(staff.status).toBe(200);
    expect(staff.data.preview).toBe(PREVIEW_BANNER);
    expect(staff.headers.get("Cache-Control")).toBe("private, no-store");
    expect(JSON.stringify(staff.data)).toContain("First wording");
    const meta = postRoute.meta({ matches: [], data: staff.data, params: { slug: "Draft-For-Review" } } as never) as {
      name?: string;
      content?: string;
    }[];
    expect(meta).toContainEqual({ name: "robots", content: "noindex" });

    const visitor = await run(postRoute.loader, "/preview/post/Draft-For-Review", { slug: "Draft-For-Review" });
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/admin\?redirectTo=/);
    expect((await run(postRoute.loader, "/post/Draft-For-Review", { slug: "Draft-For-Review" })).status).toBe(404);
    expect(await isCacheable("/preview/post/Draft-For-Review")).toBe(false);
    expect(await isCacheable("/post/Draft-For-Review")).toBe(true);
  });

  it("shows a hidden member to staff", async () => {
    const staff = await run(lawyerRoute.loader, "/preview/lawyer/New-Hire", { slug: "New-Hire" }, { headers: { cookie } });
    expect(staff.status).toBe(200);
    expect(staff.data.preview).toBe(PREVIEW_BANNER);
    expect((await run(lawyerRoute.loader, "/lawyer/New-Hire", { slug: "New-Hire" })).status).toBe(404);
  });
});

describe("share a preview", () => {
  it("a link made on the edit screen opens signed out and shows the latest saved version; revoking ends it", async () => {
    const made = await run(
      articleEdit.action,
      `/dashboard/articles/${draftId}/edit`,
      { id: String(draftId) },
      {
        method: "POST",
        headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "content-length": "20" },
        body: "intent=share-preview",
      },
    );
    expect(made.status).toBe(200);
    const url = new URL(String(made.data.shareUrl));
    expect(url.pathname).toMatch(/^\/preview\/shared\/post\/[A-Za-z0-9_-]{43}$/);
    const token = url.pathname.split("/").pop()!;

    const opened = await run(postRoute.loader, url.pathname, { slug: token });
    expect(opened.status).toBe(200);
    expect(opened.data.preview).toBe(PREVIEW_BANNER);
    await updateArticle(
      draftId,
      { title: "Draft For Review", img: "", category: "cyber", news: false, priority: false, copy: "<p>Second wording</p>" },
      TEST_ACTOR,
    );
    expect(JSON.stringify((await run(postRoute.loader, url.pathname, { slug: token })).data)).toContain("Second wording");

    const edit = await run(articleEdit.loader, `/dashboard/articles/${draftId}/edit`, { id: String(draftId) }, { headers: { cookie } });
    const links = edit.data.links as { id: number }[];
    expect(links).toHaveLength(1);
    const revoked = await run(
      articleEdit.action,
      `/dashboard/articles/${draftId}/edit`,
      { id: String(draftId) },
      {
        method: "POST",
        headers: {
          cookie,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(`intent=revoke-preview&link=${links[0].id}`.length),
        },
        body: `intent=revoke-preview&link=${links[0].id}`,
      },
    );
    expect(revoked.data.status).toEqual({ tone: "success", text: "Preview link revoked." });
    expect((await run(postRoute.loader, url.pathname, { slug: token })).status).toBe(404);
  });

  it("expires after 7 days; a forged token finds nothing", async () => {
    const made = new Date("2026-01-01T12:00:00Z");
    const { token } = await createPreviewLink("article", draftId, "Draft For Review", TEST_ACTOR, made);
    expect(await resolvePreviewLink("article", token, new Date(made.getTime() + 6.9 * 86_400_000))).toBe(draftId);
    expect(await resolvePreviewLink("article", token, new Date(made.getTime() + 7 * 86_400_000 + 1000))).toBeUndefined();
    expect(
      await resolvePreviewLink(
        "article",
        token.replace(/^./, (c) => (c === "A" ? "B" : "A")),
      ),
    ).toBeUndefined();
    expect(await resolvePreviewLink("team", token)).toBeUndefined();
  });
});

/**
 * Pictures inside article bodies (issue 12), on PGlite (or PostgreSQL with
 * TEST_DATABASE_URL) and the disk, then an S3 bucket (s3rver):
 * - the upload route (/dashboard/articles/pictures): the article picture
 *   pipeline, alt text required, JSON answers with the existing messages
 *   and limits (400/401/413, never a 500);
 * - the sanitiser keeps an <img> only with a stored body picture's src and
 *   an alt; the article save refuses a picture without one (400, text kept);
 * - the public page renders them responsively;
 * - the picture sweep counts pictures named by a body, a revision or an
 *   autosaved copy as used; purging an article removes its body pictures
 *   (those nothing else names), with the Trash's 30-day sweep too.
 */
import { rowsOf } from "~/.server/db/rows";
import { testContext, guarded } from "../support/route-call";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyPicturesInUse } from "~/.server/pictures/body-pictures";
import { saveAutosave } from "~/.server/db/autosaves";
import { createArticle, deleteArticle, getArticleById, updateArticle } from "~/.server/db/articles";
import { purgeFromTrash, sweepTrash } from "~/.server/db/trash";
import { db } from "~/.server/db/client";
import { articles } from "~/.server/db/schema";
import { createPictureSweeper, findOrphanPictures } from "~/.server/pictures/picture-sweep";
import { picturesWithoutAlt, sanitizeArticleHtml } from "~/.server/content/sanitize";
import { getStorage, setStorage, type Storage } from "~/.server/storage/storage";
import { BODY_PICTURE_TEXT, bodyPictureNames, bodyPictureSrc, responsiveBodyPictures } from "~/lib/body-pictures";
import { MSG } from "~/lib/forms/messages";
import * as articleEdit from "~/routes/admin/article-edit";
import * as picturesRoute from "~/routes/admin/article-picture";
import * as post from "~/routes/public/post";
import { eq } from "drizzle-orm";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { startS3, type TestBucket } from "../support/s3";
import { signedIn } from "../support/staff-session";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const CLIENT_IP = "127.0.0.1";
const context = testContext(CLIENT_IP);
let cookie = "";
let jpeg: Buffer;
let png: Buffer;

beforeAll(async () => {
  cookie = await signedIn("pictures@example.com", "editor", "10.9.0.7", "Pictures");
  jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#3a6f8f" } })
    .jpeg()
    .toBuffer();
  png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#8f6f3a" } })
    .png()
    .toBuffer();
});

function upload(fields: { picture?: Buffer | string; alt?: string }, headers: Record<string, string> = { cookie }) {
  const fd = new FormData();
  if (fields.picture !== undefined)
    fd.append(
      "picture",
      new Blob([typeof fields.picture === "string" ? fields.picture : new Uint8Array(fields.picture)], { type: "image/jpeg" }),
      "p.jpg",
    );
  if (fields.alt !== undefined) fd.append("alt", fields.alt);
  return new Request(`${ORIGIN}/dashboard/articles/pictures`, { method: "POST", body: fd, headers: { origin: ORIGIN, ...headers } });
}

async function answer(request: Request): Promise<{ status: number; body: Record<string, unknown> }> {
  let res: unknown;
  try {
    res = await guarded(picturesRoute.action, { request, params: {}, context });
  } catch (thrown) {
    res = thrown;
  }
  const r = res as Response;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

type Uploaded = { src: string; alt: string; width: number; height: number };
const nameOf = (src: string) => src.replace("/images/articles/", "");
const stemOf = (src: string) => nameOf(src).replace(/\.\w+$/, "");
const keys = async () => (await getStorage().list("articles")).sort();
const img = (p: Uploaded, alt = p.alt) => `<img src="${p.src}" alt="${alt}" width="${p.width}" height="${p.height}">`;

async function newArticle(title: string, copy: string) {
  return createArticle(
    { title, img: "", category: "cyber", news: false, priority: false, copy, state: { status: "published" } },
    TEST_ACTOR,
  );
}

describe("the upload route", () => {
  it("stores a checked, re-encoded picture with its WebP widths and answers src, alt, width and height", async () => {
    const { status, body } = await answer(upload({ picture: jpeg, alt: "  The boardroom   at dusk " }));
    expect(status).toBe(200);
    const p = body as Uploaded;
    expect(p.src).toMatch(/^\/images\/articles\/body-[0-9a-f-]{36}\.jpg$/);
    expect(p).toMatchObject({ alt: "The boardroom at dusk", width: 1200, height: 800 });
    const stored = await keys();
    expect(stored).toEqual(
      [`articles/${nameOf(p.src)}`, `articles/${stemOf(p.src)}-480.webp`, `articles/${stemOf(p.src)}-960.webp`].sort(),
    );
    // Re-encoded: the stored original is a fresh JPEG of the same size.
    const meta = await sharp(await getStorage().get(`articles/${nameOf(p.src)}`)).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 1200, height: 800 });
  });

  it("refuses a picture without alt text, without a file, or that is not a picture: 400 with a message per field", async () => {
    const before = await keys();
    const noAlt = await answer(upload({ picture: png, alt: "   " }));
    expect(noAlt).toMatchObject({ status: 400, body: { error: MSG.checkFields, errors: { alt: BODY_PICTURE_TEXT.altRequired } } });
    const long = await answer(upload({ picture: png, alt: "x".repeat(301) }));
    expect(long).toMatchObject({ status: 400, body: { errors: { alt: BODY_PICTURE_TEXT.altTooLong } } });
    const noFile = await answer(upload({ alt: "A picture" }));
    expect(noFile).toMatchObject({ status: 400, body: { errors: { picture: BODY_PICTURE_TEXT.fileRequired } } });
    const html = await answer(upload({ picture: "<html><script>alert(1)</script></html>", alt: "Not a picture" }));
    expect(html.status).toBe(400);
    expect((html.body.errors as { picture: string }).picture).toBe(
      "This file is not a picture we can use. Choose a JPEG, PNG, WebP or AVIF picture.",
    );
    expect(await keys()).toEqual(before);
  });

  it("refuses an upload over the limit before reading it (413, the existing message)", async () => {
    const request = new Request(`${ORIGIN}/dashboard/articles/pictures`, {
      method: "POST",
      body: "x",
      headers: { cookie, origin: ORIGIN, "content-type": "multipart/form-data; boundary=x", "content-length": String(13 * 1024 * 1024) },
    });
    expect(await answer(request)).toEqual({ status: 413, body: { error: MSG.tooLarge } });
  });

  it("answers 401 in JSON without a session, and its loader sends a visitor to sign in", async () => {
    const before = await keys();
    expect(await answer(upload({ picture: png, alt: "Hi" }, {}))).toEqual({
      status: 401,
      body: { error: "Your session has ended. Sign in again; nothing was saved." },
    });
    expect(await keys()).toEqual(before);
    let thrown: unknown;
    try {
      await guarded(picturesRoute.loader, { request: new Request(`${ORIGIN}/dashboard/articles/pictures`), params: {}, context });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Response).status).toBe(302);
    const signedIn = await guarded(picturesRoute.loader, {
      request: new Request(`${ORIGIN}/dashboard/articles/pictures`, { headers: { cookie } }),
      params: {},
      context,
    });
    expect(signedIn.status).toBe(405);
  });
});

describe("the sanitiser and the article save", () => {
  const src = "/images/articles/body-0b1c2d3e-4f50-4a6b-8c7d-123456789012.jpg";

  it("keeps a body picture with its alt, width and height; strips every other <img> and attribute", () => {
    expect(
      sanitizeArticleHtml(
        `<p>a</p><img src="${src}" alt="A &quot;quoted&quot; view" width="640" height="480" title="t" class="x" style="x" onerror="alert(1)" loading="eager">`,
      ),
    ).toBe(`<p>a</p><img src="${src}" alt="A &quot;quoted&quot; view" width="640" height="480" />`);
    for (const bad of [
      `<img src="${src}">`,
      `<img src="${src}" alt="   ">`,
      `<img src="https://evil.example${src}" alt="x">`,
      `<img src="//evil.example${src}" alt="x">`,
      `<img src="${src}?x=1" alt="x">`,
      `<img src="/images/articles/0b1c2d3e-4f50-4a6b-8c7d-123456789012.jpg" alt="an article picture, not a body one">`,
      `<img src="/images/team/body-0b1c2d3e-4f50-4a6b-8c7d-123456789012.jpg" alt="x">`,
      `<img src="data:image/png;base64,AAAA" alt="x">`,
      `<img src="javascript:alert(1)" alt="x">`,
      `<img srcset="${src} 1x" alt="x">`,
    ]) {
      expect(sanitizeArticleHtml(`<p>a</p>${bad}`), bad).toBe("<p>a</p>");
    }
    // Odd sizes are dropped, the picture kept; sanitising is idempotent.
    const odd = sanitizeArticleHtml(`<img src="${src}" alt="x" width="0" height="99999999">`);
    expect(odd).toBe(`<img src="${src}" alt="x" />`);
    expect(sanitizeArticleHtml(odd)).toBe(odd);
  });

  it("counts pictures without alt text", () => {
    expect(picturesWithoutAlt(`<img src="${src}" alt="x"><img src="${src}"><p><img src="x" alt=" "></p>`)).toBe(2);
    expect(picturesWithoutAlt("<p>none</p>")).toBe(0);
  });

  it("refuses to save a body with a picture without alt text (400, everything typed kept); saves one with it", async () => {
    const { body } = await answer(upload({ picture: png, alt: "Courthouse steps" }));
    const p = body as Uploaded;
    const article = await newArticle("Body pictures save", "<p>First</p>");
    const form = (copy: string) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries({
        title: "Body pictures save",
        category: "cyber",
        news: "no",
        status: "published",
        copy,
        version: String(article.version),
      }))
        fd.append(k, v);
      return new Request(`${ORIGIN}/dashboard/articles/${article.id}/edit`, {
        method: "POST",
        body: fd,
        headers: { cookie, origin: ORIGIN },
      });
    };
    const refused = (await guarded(articleEdit.action, {
      request: form(`<p>Text</p><img src="${p.src}" width="300" height="200">`),
      params: { id: String(article.id) },
      context,
    })) as {
      data: { errors: Record<string, string>; values: { copy: string } };
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.errors.copy).toBe(BODY_PICTURE_TEXT.missingAlt);
    expect(refused.data.values.copy).toContain(p.src);
    expect((await getArticleById(article.id))!.copy).toBe("<p>First</p>");

    const saved = (await guarded(articleEdit.action, {
      request: form(`<p>Text</p>${img(p)}`),
      params: { id: String(article.id) },
      context,
    })) as Response;
    expect(saved.status).toBe(302);
    expect((await getArticleById(article.id))!.copy).toBe(
      `<p>Text</p><img src="${p.src}" alt="Courthouse steps" width="300" height="200" />`,
    );
  });

  it("renders body pictures on the public page as responsive, lazy <picture>s", async () => {
    const { body } = await answer(upload({ picture: jpeg, alt: "Harbour & skyline" }));
    const p = body as Uploaded;
    const small = (await answer(upload({ picture: png, alt: "Small one" }))).body as Uploaded;
    const article = await newArticle("Responsive body pictures", `<p>Intro</p>${img(p, "Harbour &amp; skyline")}<p>More</p>${img(small)}`);
    const page = (await guarded(post.loader, {
      request: new Request(`${ORIGIN}/post/${article.slug}`),
      params: { slug: article.slug },
      context,
    })) as { article: { html: string } };
    const stem = stemOf(p.src);
    expect(page.article.html).toContain(
      `<picture><source type="image/avif" srcset="/images/articles/${stem}-480.avif 480w, /images/articles/${stem}-960.avif 960w" sizes="(min-width: 768px) 720px, 100vw" />` +
        `<img src="/images/articles/${stem}-960.webp" srcset="/images/articles/${stem}-480.webp 480w, /images/articles/${stem}-960.webp 960w" sizes="(min-width: 768px) 720px, 100vw" alt="Harbour &amp; skyline" width="1200" height="800" loading="lazy" decoding="async" /></picture>`,
    );
    // A picture narrower than the widths: its widths are what they really are (no upscaling), one candidate.
    const smallStem = stemOf(small.src);
    expect(page.article.html).toContain(
      `srcset="/images/articles/${smallStem}-480.webp 300w" sizes="(min-width: 768px) 300px, 100vw" alt="Small one" width="300" height="200"`,
    );
    // PICTURE_BASE_URL: the widths come from there.
    expect(responsiveBodyPictures(`<img src="${p.src}" alt="x" width="1200" height="800" />`, "https://pictures.example.com")).toContain(
      `src="https://pictures.example.com/articles/${stem}-960.webp"`,
    );
  });
});

describe("keeping and removing body pictures", () => {
  it("finds body picture names in text", () => {
    const a = "/images/articles/body-0b1c2d3e-4f50-4a6b-8c7d-123456789012.webp";
    expect(bodyPictureNames(`<img src="${a}" alt="x"> ${a} /images/articles/body-nope.jpg`)).toEqual([nameOf(a)]);
    expect(bodyPictureSrc(nameOf(a))).toBe(a);
  });

  it("the sweep keeps pictures named by a body, a revision or an autosaved copy; removes one nothing names", async () => {
    const up = async (alt: string) => (await answer(upload({ picture: png, alt }))).body as Uploaded;
    const inBody = await up("In a body");
    const inRevision = await up("In a revision");
    const inAutosave = await up("In an autosave");
    const trashed = await up("In a trashed article");
    const unused = await up("Never used");
    const article = await newArticle("Sweep keeps", `<p>x</p>${img(inRevision)}`);
    await updateArticle(
      article.id,
      { title: "Sweep keeps", img: "", category: "cyber", news: false, priority: false, copy: `<p>x</p>${img(inBody)}` },
      TEST_ACTOR,
    );
    const other = await newArticle("Sweep keeps trashed", `<p>x</p>${img(trashed)}`);
    await deleteArticle(other.id, TEST_ACTOR);
    const userId = await staffId("pictures@example.com");
    await saveAutosave(userId, null, { title: "Not saved yet", copy: `<p>draft</p>${img(inAutosave)}` }, null);

    const inUse = await bodyPicturesInUse();
    for (const p of [inBody, inRevision, inAutosave, trashed]) expect(inUse.has(nameOf(p.src)), p.alt).toBe(true);
    expect(inUse.has(nameOf(unused.src))).toBe(false);

    const orphans = await findOrphanPictures();
    expect(orphans.filter((k) => k.includes(stemOf(unused.src))).sort()).toEqual(
      [`articles/${nameOf(unused.src)}`, `articles/${stemOf(unused.src)}-480.webp`, `articles/${stemOf(unused.src)}-960.webp`].sort(),
    );
    for (const p of [inBody, inRevision, inAutosave, trashed])
      expect(
        orphans.some((k) => k.includes(stemOf(p.src))),
        p.alt,
      ).toBe(false);
    await createPictureSweeper().sweep(true);
    const left = await keys();
    expect(left.some((k) => k.includes(stemOf(unused.src)))).toBe(false);
    for (const p of [inBody, inRevision, inAutosave, trashed]) expect(left).toContain(`articles/${nameOf(p.src)}`);
  });

  it("purging an article removes the body pictures its body, revisions and autosaved copies named, but not one another article uses", async () => {
    const up = async (alt: string) => (await answer(upload({ picture: png, alt }))).body as Uploaded;
    const first = await up("First version");
    const second = await up("Second version");
    const drafted = await up("Only in a working copy");
    const shared = await up("Shared");
    const article = await newArticle("Purged with pictures", `<p>a</p>${img(first)}${img(shared)}`);
    const updated = await updateArticle(
      article.id,
      {
        title: "Purged with pictures",
        img: "",
        category: "cyber",
        news: false,
        priority: false,
        copy: `<p>b</p>${img(second)}${img(shared)}`,
      },
      TEST_ACTOR,
    );
    expect(updated).toBeDefined();
    await saveAutosave(await staffId("pictures@example.com"), article.id, { copy: `<p>c</p>${img(drafted)}` }, 2);
    await newArticle("Keeps the shared picture", `<p>x</p>${img(shared)}`);
    await deleteArticle(article.id, TEST_ACTOR);
    // In the Trash: everything is kept (a restore brings the article back with its pictures).
    for (const p of [first, second, drafted, shared]) expect(await keys()).toContain(`articles/${nameOf(p.src)}`);

    expect(await purgeFromTrash("article", article.id, TEST_ACTOR)).toBe("Purged with pictures");
    const left = await keys();
    for (const p of [first, second, drafted])
      expect(
        left.some((k) => k.includes(stemOf(p.src))),
        p.alt,
      ).toBe(false);
    expect(left).toContain(`articles/${nameOf(shared.src)}`);
  });

  it("the Trash's 30-day sweep removes them too", async () => {
    const p = (await answer(upload({ picture: png, alt: "Swept" }))).body as Uploaded;
    const article = await newArticle("Swept after 30 days", `<p>a</p>${img(p)}`);
    await deleteArticle(article.id, TEST_ACTOR);
    await db()
      .update(articles)
      .set({ deleted_at: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(articles.id, article.id));
    expect(await sweepTrash(TEST_ACTOR)).toBeGreaterThanOrEqual(1);
    expect((await keys()).some((k) => k.includes(stemOf(p.src)))).toBe(false);
  });
});

async function staffId(email: string): Promise<string> {
  const result = await db().execute(`select id from "user" where email = '${email}'`);
  const rows = rowsOf<{ id: string }>(result);
  return rows[0].id;
}

describe("in an S3 bucket", () => {
  let bucket: TestBucket;
  let disk: Storage;
  beforeAll(async () => {
    disk = getStorage();
    bucket = await startS3({ bucket: "body-pictures" });
    setStorage(bucket.storage());
  });
  afterAll(async () => {
    setStorage(disk);
    await bucket?.stop();
  });

  it("stores, keeps, sweeps and purges body pictures through the Storage interface", async () => {
    const kept = (await answer(upload({ picture: png, alt: "In the bucket" }))).body as Uploaded;
    const orphan = (await answer(upload({ picture: png, alt: "Orphan in the bucket" }))).body as Uploaded;
    expect(await keys()).toContain(`articles/${nameOf(kept.src)}`);
    const article = await newArticle("Bucket body pictures", `<p>a</p>${img(kept)}`);
    // Several processes may share the bucket: an orphan goes at the second pass.
    const sweeper = createPictureSweeper();
    expect((await sweeper.sweep()).removed).toEqual([]);
    const second = await sweeper.sweep();
    expect(second.removed.sort()).toEqual(
      [`articles/${nameOf(orphan.src)}`, `articles/${stemOf(orphan.src)}-480.webp`, `articles/${stemOf(orphan.src)}-960.webp`].sort(),
    );
    expect(await keys()).toContain(`articles/${nameOf(kept.src)}`);
    await deleteArticle(article.id, TEST_ACTOR);
    await purgeFromTrash("article", article.id, TEST_ACTOR);
    expect((await keys()).some((k) => k.includes(stemOf(kept.src)))).toBe(false);
  });
});

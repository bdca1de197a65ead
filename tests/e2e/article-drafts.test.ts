/**
 * Issue 12's pictures inside the body and drafts kept while writing, in
 * Chromium against the built server (as a member of staff would):
 * - "Insert picture" in the editor's toolbar: a modal dialog that asks for
 *   the picture and its description (refused without one), the picture in
 *   the body, saved, and shown on the public post as a lazy responsive
 *   <picture> that loads; axe finds nothing with the dialog open;
 * - autosave ~10 s after a change ("Draft saved at …", announced politely)
 *   that leaves the published post as it is; opening the form again brings
 *   the text back ("Restored your unsaved changes from …"), Discard drops it;
 * - the session ends while writing (signed out on the server; the browser
 *   still sends its old cookie): the autosave and the save are refused, the
 *   form keeps the text and offers to sign in again; after signing in, the
 *   form comes back with the text, and saving it works.
 * Every working copy made here is saved or discarded (the server is shared).
 *
 * Each test stands alone: its own signed-in page (`staffPage`, a session of
 * its own) and its own article, made through the create form's POST (with a
 * picture in the body sent as the editor sends it) when the test is not about
 * writing it; each article goes to the Trash when its test ends.
 */
import type { Page } from "playwright-core";
import { beforeAll } from "vitest";
import { describe, expect, it, onTestFinished } from "./fixture";
import { ADMIN_EMAIL, ADMIN_PASSWORD, articleForTest, axe, deleteFromList, testJpeg } from "./support";

const stamp = Date.now();
const ALT = "Toronto skyline seen from the islands";
const VIEWPORT = { viewport: { width: 1280, height: 900 } };
let cover: Buffer;
let picture: Buffer;

beforeAll(async () => {
  cover = await testJpeg(640, 360);
  picture = await testJpeg(1200, 800);
});

async function ready(p: Page) {
  await p.locator('main[data-hydrated="true"]').waitFor();
  await p.getByTestId("rich-text-editor").waitFor();
}

async function status(p: Page, text: string) {
  await p.getByTestId("status").getByText(text, { exact: true }).waitFor({ timeout: 15_000 });
}

const body = (p: Page) => p.getByRole("textbox", { name: /Article body/ });

async function autosaved(p: Page) {
  await expect
    .poll(() => p.getByTestId("autosave-status").textContent(), { timeout: 25_000, interval: 250 })
    .toMatch(/^Draft saved at \d{1,2}:\d{2}/);
}

/**
 * A published article made for one test, its body a paragraph, a picture with its description (sent to
 * /dashboard/articles/pictures as the editor's dialog sends it) and a closing paragraph; returns its title,
 * post URL and edit URL.
 */
async function articleWithPicture(p: Page, base: string, label: string): Promise<{ title: string; post: string; editUrl: string }> {
  const res = await p.request.post(`${base}/dashboard/articles/pictures`, {
    multipart: { picture: { name: "skyline.jpg", mimeType: "image/jpeg", buffer: picture }, alt: ALT },
    headers: { origin: base },
  });
  expect(res.status()).toBe(200);
  const img = (await res.json()) as { src: string; alt: string; width: number; height: number };
  const title = `Body pictures ${label} ${stamp}`;
  await articleForTest(
    p,
    title,
    {
      category: "construction",
      news: "no",
      priority: "",
      copy: `<p>Opening paragraph before the picture.</p><img src="${img.src}" alt="${img.alt}" width="${img.width}" height="${img.height}"><p>Closing paragraph after the picture.</p>`,
      photo: { name: "cover.jpg", mimeType: "image/jpeg", buffer: cover },
    },
    base,
  );
  await p.goto(`${base}/dashboard/articles?q=${encodeURIComponent(title)}`);
  await p.getByRole("link", { name: `Edit ${title}` }).click();
  await p.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
  return { title, post: `${base}/post/${title.replace(/\s+/g, "-")}`, editUrl: p.url() };
}

describe("pictures inside the article body", () => {
  it("inserts a picture with its description from the editor's toolbar, saves, and shows it on the post", async ({
    staffPage,
    newPage,
    base,
  }) => {
    const { page } = await staffPage(VIEWPORT);
    const TITLE = `Body pictures in the browser ${stamp}`;
    const SLUG = TITLE.replace(/\s+/g, "-");
    onTestFinished(() => deleteFromList("articles", TITLE, base));
    await page.goto(`${base}/dashboard/articles/new`);
    await ready(page);
    await page.locator("#field-title").fill(TITLE);
    await page.locator("#field-photo").setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: cover });
    await page.locator("#field-category").selectOption("construction");
    await page.getByLabel("No", { exact: true }).check();
    await body(page).click();
    await page.keyboard.type("Opening paragraph before the picture.");
    await page.keyboard.press("Enter");

    // The toolbar button opens a modal dialog; the focus goes into it.
    const opener = page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Insert picture" });
    expect(await opener.getAttribute("aria-haspopup")).toBe("dialog");
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "Insert picture" });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).toBe("file");
    expect(await axe(page)).toEqual([]);

    // Refused without a picture and without a description.
    await dialog.getByRole("button", { name: "Insert picture" }).click();
    await dialog.getByText("Choose a JPEG, PNG, WebP or AVIF picture.", { exact: true }).waitFor();
    await dialog.getByText("Describe the picture (alt text) for people who cannot see it.", { exact: true }).waitFor();
    await dialog.getByLabel("Picture").setInputFiles({ name: "skyline.jpg", mimeType: "image/jpeg", buffer: picture });
    await dialog.getByRole("button", { name: "Insert picture" }).click();
    await dialog.getByText("Describe the picture (alt text) for people who cannot see it.", { exact: true }).waitFor();
    expect(await dialog.getByLabel("Description (alt text)").getAttribute("aria-invalid")).toBe("true");
    // Escape closes it and the focus goes back where it was (the editor: the button was clicked); nothing is inserted.
    // Waited for until the editor has taken the dialog away (its "close" event comes a moment after the dialog stops
    // being a dialog to the accessibility tree, which is all `dialog` waits for: a press in between would be lost).
    const dialogElement = page.getByTestId("insert-picture-dialog");
    await page.keyboard.press("Escape");
    await dialogElement.waitFor({ state: "detached" });
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.isContentEditable)).toBe(true);
    expect(await body(page).locator("img").count()).toBe(0);

    // By keyboard: the button opens it, Escape returns the focus to the button.
    await opener.focus();
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialogElement.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Insert picture");

    // Opened again in the moment between its closing and its "close" event (a fast keyboard, a busy browser): it opens and stays open.
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.evaluate(() => {
      document.querySelector<HTMLDialogElement>('[data-testid="insert-picture-dialog"]')!.close();
      document.querySelector<HTMLButtonElement>('button[aria-label="Insert picture"][aria-haspopup="dialog"]')!.click();
    });
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialogElement.count()).toBe(1);

    // Again: Enter in the description inserts it (and does not send the article form).
    await dialog.getByLabel("Picture").setInputFiles({ name: "skyline.jpg", mimeType: "image/jpeg", buffer: picture });
    await dialog.getByLabel("Description (alt text)").fill(ALT);
    await dialog.getByLabel("Description (alt text)").press("Enter");
    await dialog.waitFor({ state: "detached", timeout: 20_000 });
    const inserted = body(page).locator(`img[alt="${ALT}"]`);
    await inserted.waitFor();
    expect(await inserted.getAttribute("src")).toMatch(/^\/images\/articles\/body-[0-9a-f-]{36}\.jpg$/);
    expect(await inserted.getAttribute("width")).toBe("1200");
    expect(await inserted.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1200);
    await page.keyboard.type("Closing paragraph after the picture.");
    expect(page.url()).toBe(`${base}/dashboard/articles/new`);

    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status(page, "Article has been added successfully.");

    const { page: pub } = await newPage();
    const res = await pub.goto(`${base}/post/${SLUG}`);
    expect(res?.status()).toBe(200);
    const shown = pub.locator(`main .prose-article picture img[alt="${ALT}"]`);
    await shown.waitFor();
    expect(await shown.getAttribute("loading")).toBe("lazy");
    expect(await shown.getAttribute("width")).toBe("1200");
    expect(await shown.getAttribute("height")).toBe("800");
    expect(await shown.getAttribute("srcset")).toMatch(
      /body-[0-9a-f-]{36}-480\.webp 480w, \/images\/articles\/body-[0-9a-f-]{36}-960\.webp 960w$/,
    );
    expect(await pub.locator("main .prose-article picture source[type='image/avif']").getAttribute("srcset")).toMatch(/-960\.avif 960w$/);
    await shown.scrollIntoViewIfNeeded();
    await expect.poll(() => shown.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
    const text = await pub.locator("main").textContent();
    expect(text).toContain("Opening paragraph before the picture.");
    expect(text).toContain("Closing paragraph after the picture.");
    await pub.close();

    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(TITLE.toLowerCase())}`);
    await page.getByRole("link", { name: `Edit ${TITLE}` }).click();
    await page.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
    await ready(page);
    // The editor shows the stored picture again.
    await body(page).locator(`img[alt="${ALT}"]`).waitFor();
    expect(await body(page).locator("img").count()).toBe(1);
  });

  it("changes the description of a picture already in the body (required, by keyboard) and links a word; the post shows both", async ({
    staffPage,
    newPage,
    base,
  }) => {
    const { page } = await staffPage(VIEWPORT);
    const { post, editUrl } = await articleWithPicture(page, base, "description");
    const NEW_ALT = "The Toronto skyline at dusk, seen from the islands";
    await page.goto(editUrl);
    await ready(page);
    const tool = page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Picture description" });
    // Only a selected picture has a description to change.
    await body(page).getByText("Closing paragraph after the picture.").click();
    await expect.poll(() => tool.isDisabled()).toBe(true);
    await body(page).locator(`img[alt="${ALT}"]`).click();
    await expect.poll(() => tool.isDisabled()).toBe(false);
    await tool.click();
    const field = page.getByLabel("Description of the selected picture (alt text)");
    expect(await field.inputValue()).toBe(ALT);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await field.getAttribute("id"));
    expect(await axe(page)).toEqual([]);
    // Refused when emptied; what was there stays in the body.
    await field.fill("   ");
    await field.press("Enter");
    await page.getByText("Describe the picture (alt text) for people who cannot see it.", { exact: true }).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await body(page).locator(`img[alt="${ALT}"]`).count()).toBe(1);
    await field.fill(NEW_ALT);
    await field.press("Enter");
    await field.waitFor({ state: "detached" });
    await body(page).locator(`img[alt="${NEW_ALT}"]`).waitFor();
    expect(page.url()).toBe(editUrl);
    // The link field works the same way: text selected, an address typed, Enter.
    await body(page).getByText("Closing paragraph after the picture.").click();
    await page.keyboard.press("End");
    await page.keyboard.press("Shift+Home");
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Link" }).click();
    await page.getByLabel("Link address (leave empty to remove the link)").fill("javascript:alert(1)");
    await page.keyboard.press("Enter");
    await page.getByText("Use a web address (https://…), an e-mail address or a phone number.", { exact: true }).waitFor();
    await page.getByLabel("Link address (leave empty to remove the link)").fill("example.com/closing");
    await page.keyboard.press("Enter");
    await body(page).locator('a[href="https://example.com/closing"]').waitFor();
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await status(page, "Article was updated successfully.");

    const { page: pub } = await newPage();
    await pub.goto(post);
    await pub.locator(`main .prose-article picture img[alt="${NEW_ALT}"]`).waitFor();
    expect(await pub.locator(`main .prose-article img[alt="${ALT}"]`).count()).toBe(0);
    expect(await pub.locator('main .prose-article a[href="https://example.com/closing"]').count()).toBe(1);
    await pub.close();
  });
});

describe("drafts kept while writing", () => {
  it("autosaves about 10 s after a change without changing the published post; the form brings the text back, Discard drops it", async ({
    staffPage,
    newPage,
    base,
  }) => {
    const { page } = await staffPage(VIEWPORT);
    const { post, editUrl } = await articleWithPicture(page, base, "autosave");
    await page.goto(editUrl);
    await ready(page);
    await body(page).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" Autosaved addition.");
    const typedAt = Date.now();
    await autosaved(page);
    const waited = Date.now() - typedAt;
    expect(waited).toBeGreaterThan(8_000);
    expect(waited).toBeLessThan(25_000);
    expect(await page.getByTestId("autosave-status").getAttribute("aria-live")).toBe("polite");

    // The live page is as it was.
    const { page: pub } = await newPage();
    expect((await pub.goto(post))?.status()).toBe(200);
    expect(await pub.locator("main").textContent()).toContain("Closing paragraph after the picture.");
    expect(await pub.locator("main").textContent()).not.toContain("Autosaved addition.");
    await pub.close();

    // Another browser (no copy of its own) opens the form: the server's copy comes back.
    const other = await staffPage(VIEWPORT);
    await other.page.goto(editUrl);
    await ready(other.page);
    await other.page
      .getByTestId("kept-draft-notice")
      .getByText(/^Restored your unsaved changes from /)
      .waitFor();
    await expect.poll(() => body(other.page).textContent()).toContain("Autosaved addition.");
    expect(await axe(other.page)).toEqual([]);
    await other.page.getByRole("button", { name: "Discard them" }).click();
    await expect.poll(() => body(other.page).textContent()).not.toContain("Autosaved addition.");

    // Discarded on the server and, here, the copy matched the server's: nothing comes back.
    await page.reload();
    await ready(page);
    await page.waitForTimeout(1_000);
    expect(await page.getByTestId("kept-draft-notice").textContent()).toBe("");
    expect(await body(page).textContent()).not.toContain("Autosaved addition.");
  });

  it("keeps the text when the session ends while writing, and brings it back after signing in again", async ({
    staffPage,
    newPage,
    base,
  }) => {
    const { context, page } = await staffPage(VIEWPORT);
    const { title: TITLE, post, editUrl } = await articleWithPicture(page, base, "session");
    onTestFinished(() => deleteFromList("articles", `${TITLE} (edited while signed out)`, base));
    await page.goto(editUrl);
    await ready(page);
    await body(page).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" Written before the session ended.");

    // The session ends on the server (signed out elsewhere); this browser still sends its old cookie.
    const old = (await context.cookies()).filter((c) => c.name.includes("session_token"));
    expect(old.length).toBeGreaterThan(0);
    const out = await page.request.post(`${base}/logout`, { headers: { origin: base }, maxRedirects: 0 });
    expect(out.status()).toBe(302);
    await context.addCookies(old);

    await page.keyboard.type(" And after.");
    await page.locator("#field-title").fill(`${TITLE} (edited while signed out)`);
    // The autosave is refused: the form says so and keeps everything.
    const notice = page.getByTestId("kept-draft-notice");
    await notice.getByText(/^Your session has ended\. Sign in again; nothing was saved\./).waitFor({ timeout: 25_000 });
    // So is the save: the status says so, and the page is still the form with the text.
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await status(page, "Your session has ended. Sign in again; nothing was saved.");
    expect(page.url()).toBe(editUrl);
    expect(await body(page).textContent()).toContain("Written before the session ended. And after.");
    expect(await page.locator("#field-title").inputValue()).toBe(`${TITLE} (edited while signed out)`);
    expect(await axe(page)).toEqual([]);

    await notice.getByRole("link", { name: "Sign in again" }).click();
    await page.waitForURL(/\/admin\?redirectTo=/);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(editUrl);
    await ready(page);
    await page
      .getByTestId("kept-draft-notice")
      .getByText(/^Restored your unsaved changes from /)
      .waitFor();
    await expect.poll(() => body(page).textContent()).toContain("Written before the session ended. And after.");
    expect(await page.locator("#field-title").inputValue()).toBe(`${TITLE} (edited while signed out)`);

    // Saved for real now; nothing is offered again afterwards.
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await status(page, "Article was updated successfully.");
    const { page: pub } = await newPage();
    await pub.goto(`${post}-edited-while-signed-out`);
    expect(await pub.locator("main").textContent()).toContain("Written before the session ended. And after.");
    await pub.close();
    await page.reload();
    await ready(page);
    await page.waitForTimeout(1_000);
    expect(await page.getByTestId("kept-draft-notice").textContent()).toBe("");
  });

  it("a new article's draft is saved when the tab is hidden and kept apart until its first save (no duplicate articles)", async ({
    staffPage,
    base,
  }) => {
    const { page } = await staffPage(VIEWPORT);
    const title = `Autosaved new article ${stamp}`;
    await page.goto(`${base}/dashboard/articles/new`);
    await ready(page);
    await page.locator("#field-title").fill(title);
    await body(page).click();
    await page.keyboard.type("Not saved yet.");
    // The tab is hidden: saved at once, not 10 s later.
    const hiddenAt = Date.now();
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await autosaved(page);
    expect(Date.now() - hiddenAt).toBeLessThan(5_000);
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(title.toLowerCase())}`);
    expect(await page.getByRole("link", { name: `Edit ${title}` }).count()).toBe(0);
    await page.goto(`${base}/dashboard/articles/new`);
    await ready(page);
    await page
      .getByTestId("kept-draft-notice")
      .getByText(/^Restored your unsaved changes from /)
      .waitFor();
    expect(await page.locator("#field-title").inputValue()).toBe(title);
    await page.getByRole("button", { name: "Discard them" }).click();
    expect(await page.locator("#field-title").inputValue()).toBe("");
    await page.getByTestId("autosave-status").getByText("Unsaved changes discarded.").waitFor();
  });
});

/**
 * The editorial workflow in Chromium: a draft article is written, stays off
 * the public site (404, not on /insights), is previewed by staff with the
 * banner and noindex, shared with a link that opens signed out, then
 * deleted, found in the Trash, restored, and deleted permanently.
 *
 * Each test stands alone: its own signed-in page (`staffPage`) and its own
 * draft (written in the form in the first test, sent by the create form's
 * POST in the others).
 */
import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "./fixture";
import { articleForTest, axe, dashboardReady, deleteFromList, testJpeg } from "./support";

const stamp = Date.now();

/** The signed-in pages of this file: a desktop window (`staffPage`). */
const SIGNED_IN = { viewport: { width: 1280, height: 900 } };

async function status(p: Page, text: string | RegExp) {
  await p.getByTestId("status").getByText(text).first().waitFor({ timeout: 15_000 });
}

/** A draft made for one test (the create form's POST). */
async function draftForTest(p: Page, base: string, label: string): Promise<string> {
  return articleForTest(
    p,
    `Editorial draft ${label} ${stamp}`,
    { news: "no", priority: "", status: "draft", copy: "<p>Not for the public yet.</p>" },
    base,
  );
}

/** Opens a draft's edit form from the Manage Articles list. */
async function openEdit(p: Page, base: string, title: string) {
  await p.goto(`${base}/dashboard/articles?q=${encodeURIComponent(title)}`);
  await dashboardReady(p);
  await p.getByRole("link", { name: `Edit ${title}` }).click();
  await p.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
  await dashboardReady(p);
  await p.locator('[role="textbox"][aria-multiline="true"][aria-labelledby]').waitFor(); // the body editor, mounted after hydration
}

describe("editorial workflow", () => {
  it("a draft is written, stays off the public site, and staff preview it with the banner", async ({ base, newPage, staffPage }) => {
    const { page } = await staffPage(SIGNED_IN);
    const TITLE = `Editorial draft ${stamp}`;
    const SLUG = TITLE.replace(/\s+/g, "-");
    onTestFinished(() => deleteFromList("articles", TITLE, base));
    await page.goto(`${base}/dashboard/articles/new`);
    await dashboardReady(page);
    await page.getByTestId("rich-text-editor").waitFor();
    await page.locator("#field-title").fill(TITLE);
    await page.locator("#field-category").selectOption("cyber");
    await page.getByLabel("No", { exact: true }).check();
    await page.getByRole("textbox", { name: /Article body/ }).click();
    await page.keyboard.type("Not for the public yet.");
    await page.getByLabel("Draft", { exact: true }).check();
    await page.locator("#field-photo").setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: await testJpeg(400, 300) });
    await page.getByTestId("file-size").waitFor();
    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status(page, "Article has been added successfully.");

    const { context: visitor, page: v } = await newPage();
    onTestFinished(() => visitor.close());
    expect((await v.goto(`${base}/post/${SLUG}`))?.status()).toBe(404);
    await v.goto(`${base}/insights`);
    expect(await v.locator("main").textContent()).not.toContain(TITLE);

    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(TITLE)}`);
    await dashboardReady(page);
    expect(await page.locator("main").textContent()).toContain("Draft");
    await openEdit(page, base, TITLE);
    expect(await axe(page)).toEqual([]);
    const href = await page.getByRole("link", { name: /^Preview/ }).getAttribute("href");
    expect(href).toBe(`/preview/post/${SLUG}`);

    const preview = await page.context().newPage();
    const res = await preview.goto(`${base}${href}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["cache-control"]).toMatch(/no-store/);
    await preview.getByText("Preview — not published").waitFor();
    expect(await preview.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    expect(await preview.locator("h1").textContent()).toBe(TITLE);
  });

  it("a shared preview link opens signed out; revoked, it is the 404", async ({ base, newPage, staffPage }) => {
    const { page } = await staffPage(SIGNED_IN);
    const title = await draftForTest(page, base, "shared");
    await openEdit(page, base, title);
    await page.getByRole("button", { name: "Share a preview" }).click();
    const link = page.locator("#share-url");
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toMatch(/\/preview\/shared\/post\/[A-Za-z0-9_-]+$/);
    const path = new URL(url).pathname;

    const { context: partner, page: p } = await newPage();
    onTestFinished(() => partner.close());
    expect((await p.goto(`${base}${path}`))?.status()).toBe(200);
    await p.getByText("Preview — not published").waitFor();
    expect(await p.locator("h1").textContent()).toBe(title);

    await page.getByRole("button", { name: /^Revoke/ }).click();
    await status(page, "Preview link revoked.");
    expect((await p.goto(`${base}${path}`))?.status()).toBe(404);
  });

  it("delete → Trash → restore → delete permanently", async ({ base, staffPage }) => {
    const { page } = await staffPage(SIGNED_IN);
    const TITLE = await draftForTest(page, base, "trash");
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(TITLE)}`);
    await dashboardReady(page);
    await page.getByRole("button", { name: `Delete ${TITLE}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await status(page, "Article has been deleted successfully.");

    await page.goto(`${base}/dashboard/trash`);
    await dashboardReady(page);
    expect(await axe(page)).toEqual([]);
    await page.getByRole("button", { name: `Restore ${TITLE}` }).click();
    await status(page, `“${TITLE}” was restored.`);
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(TITLE)}`);
    await dashboardReady(page);
    expect(await page.getByRole("link", { name: `Edit ${TITLE}` }).count()).toBe(1);

    await page.getByRole("button", { name: `Delete ${TITLE}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await status(page, "Article has been deleted successfully.");
    await page.goto(`${base}/dashboard/trash`);
    await dashboardReady(page);
    await page.getByRole("button", { name: `Delete permanently ${TITLE}` }).click();
    await page.getByText(`Delete “${TITLE}” permanently? This cannot be undone.`).waitFor();
    await page.getByRole("button", { name: "Delete permanently", exact: true }).click();
    await status(page, `“${TITLE}” was deleted permanently.`);
    expect(await page.getByRole("button", { name: `Restore ${TITLE}` }).count()).toBe(0);
  });
});

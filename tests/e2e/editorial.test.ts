/**
 * The editorial workflow in Chromium: a draft article is written, stays off
 * the public site (404, not on /insights), is previewed by staff with the
 * banner and noindex, shared with a link that opens signed out, then
 * deleted, found in the Trash, restored, and deleted permanently.
 */
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe, launchBrowser, newPage, sharedServerUrl, signInAsStaff } from "./support";

const stamp = Date.now();
const TITLE = `Editorial draft ${stamp}`;
const SLUG = TITLE.replace(/\s+/g, "-");
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  base = sharedServerUrl();
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser, { viewport: { width: 1280, height: 900 } }));
  await signInAsStaff(page, base);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function ready(p = page) {
  await p.locator('main[data-hydrated="true"]').waitFor();
  await p.waitForLoadState("networkidle");
}
async function status(text: string | RegExp) {
  await page.getByTestId("status").getByText(text).first().waitFor({ timeout: 15_000 });
}

describe("editorial workflow", () => {
  it("a draft is written, stays off the public site, and staff preview it with the banner", async () => {
    await page.goto(`${base}/dashboard/articles/new`);
    await ready();
    await page.getByTestId("rich-text-editor").waitFor();
    await page.locator("#field-title").fill(TITLE);
    await page.locator("#field-category").selectOption("cyber");
    await page.getByLabel("No", { exact: true }).check();
    await page.getByRole("textbox", { name: /Article body/ }).click();
    await page.keyboard.type("Not for the public yet.");
    await page.getByLabel("Draft", { exact: true }).check();
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#3a6f8f" } })
      .jpeg()
      .toBuffer();
    await page.locator("#field-photo").setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await page.getByTestId("file-size").waitFor();
    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status("Article has been added successfully.");

    const visitor = await browser.newContext();
    const v = await visitor.newPage();
    expect((await v.goto(`${base}/post/${SLUG}`))?.status()).toBe(404);
    await v.goto(`${base}/insights`);
    expect(await v.locator("main").textContent()).not.toContain(TITLE);
    await visitor.close();

    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(TITLE)}`);
    await ready();
    expect(await page.locator("main").textContent()).toContain("Draft");
    await page.getByRole("link", { name: `Edit ${TITLE}` }).click();
    await page.waitForURL(/\/dashboard\/articles\/\d+\/edit$/);
    await ready();
    await page.locator('[role="textbox"][aria-multiline="true"][aria-labelledby]').waitFor(); // the body editor, mounted after hydration
    expect(await axe(page)).toEqual([]);
    const href = await page.getByRole("link", { name: /^Preview/ }).getAttribute("href");
    expect(href).toBe(`/preview/post/${SLUG}`);

    const preview = await context.newPage();
    const res = await preview.goto(`${base}${href}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["cache-control"]).toMatch(/no-store/);
    await preview.getByText("Preview — not published").waitFor();
    expect(await preview.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    expect(await preview.locator("h1").textContent()).toBe(TITLE);
    await preview.close();
  });

  it("a shared preview link opens signed out; revoked, it is the 404", async () => {
    await page.getByRole("button", { name: "Share a preview" }).click();
    const link = page.locator("#share-url");
    await link.waitFor();
    const url = await link.inputValue();
    expect(url).toMatch(/\/preview\/shared\/post\/[A-Za-z0-9_-]+$/);
    const path = new URL(url).pathname;

    const partner = await browser.newContext();
    const p = await partner.newPage();
    expect((await p.goto(`${base}${path}`))?.status()).toBe(200);
    await p.getByText("Preview — not published").waitFor();
    expect(await p.locator("h1").textContent()).toBe(TITLE);

    await page.getByRole("button", { name: /^Revoke/ }).click();
    await status("Preview link revoked.");
    expect((await p.goto(`${base}${path}`))?.status()).toBe(404);
    await partner.close();
  });

  it("delete → Trash → restore → delete permanently", async () => {
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(TITLE)}`);
    await ready();
    await page.getByRole("button", { name: `Delete ${TITLE}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await status("Article has been deleted successfully.");

    await page.goto(`${base}/dashboard/trash`);
    await ready();
    expect(await axe(page)).toEqual([]);
    await page.getByRole("button", { name: `Restore ${TITLE}` }).click();
    await status(`“${TITLE}” was restored.`);
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(TITLE)}`);
    await ready();
    await page.getByRole("link", { name: `Edit ${TITLE}` }).waitFor();

    await page.getByRole("button", { name: `Delete ${TITLE}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
    await status("Article has been deleted successfully.");
    await page.goto(`${base}/dashboard/trash`);
    await ready();
    await page.getByRole("button", { name: `Delete permanently ${TITLE}` }).click();
    await page.getByText(`Delete “${TITLE}” permanently? This cannot be undone.`).waitFor();
    await page.getByRole("button", { name: "Delete permanently", exact: true }).click();
    await status(`“${TITLE}” was deleted permanently.`);
    expect(await page.getByRole("button", { name: `Restore ${TITLE}` }).count()).toBe(0);
  });
});

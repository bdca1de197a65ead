/**
 * The dashboard without JavaScript (progressive enhancement): sign-in, a
 * team member with support staff added through the server, chips as
 * checkboxes, delete through the server's confirmation panel, an article
 * from the plain textarea. Also: public pages never load the editor.
 * (axe needs JavaScript in the page: the same screens are checked in admin-dashboard.test.ts.)
 */
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, launchBrowser, newPage, sharedServerUrl } from "./support";

const stamp = Date.now();
const MEMBER = `Nojs Member${stamp}`;
const ARTICLE = `Nojs article ${stamp}`;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  base = sharedServerUrl();
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser, { javaScriptEnabled: false }));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const status = (text: string) => page.getByTestId("status").getByText(text, { exact: true }).waitFor({ timeout: 15_000 });

describe("dashboard without JavaScript", () => {
  it("signs in", async () => {
    await page.goto(`${base}/admin`);
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${base}/dashboard`);
  });

  it("adds a member with support staff and chips, keeping what was typed", async () => {
    await page.goto(`${base}/dashboard/lawyers/new`);
    await page.locator("#field-full_name").fill(MEMBER);
    await page.locator("#field-title").fill("Associate");
    await page.locator("#field-email").fill(`nojs${stamp}@example.com`);
    await page.locator("#field-extension").fill("300");
    await page.locator("#field-desc").fill("Bio without scripts.");
    await page.getByRole("checkbox", { name: "Construction", exact: true }).check();
    await page.getByRole("checkbox", { name: "Dog bites" }).check();
    await page.getByText("ADD NEW STAFF MEMBER").click(); // <details>
    await page.getByLabel("Staff name").fill("Pat Assistant");
    await page.getByRole("button", { name: "SAVE NEW STAFF MEMBER" }).click();
    await status("Please fill out all fields for the new support staff member.");
    expect(await page.locator("#field-full_name").inputValue()).toBe(MEMBER);
    await page.getByLabel("Staff title").fill("Assistant");
    await page.getByLabel("Staff email").fill("pat@example.com");
    await page.getByLabel("Staff extension").fill("301");
    await page.getByRole("button", { name: "SAVE NEW STAFF MEMBER" }).click();
    await page.getByRole("button", { name: "Remove Pat Assistant" }).waitFor();
    expect(await page.getByRole("checkbox", { name: "Construction", exact: true }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "ADD TEAM MEMBER" }).click();
    await status(`${MEMBER} has been added successfully`);
  });

  it("deletes through the confirmation panel", async () => {
    await page.goto(`${base}/dashboard/lawyers?q=${encodeURIComponent(MEMBER)}`);
    await page.getByRole("button", { name: `Delete ${MEMBER}` }).click();
    await page.getByRole("heading", { name: "Are you sure you want to delete this?" }).waitFor();
    await page.getByRole("region", { name: "Are you sure you want to delete this?" }).getByRole("button", { name: `Delete ${MEMBER}` }).click();
    await status(`${MEMBER} has been deleted successfully`);
  });

  it("adds an article from the plain textarea and deletes it", async () => {
    await page.goto(`${base}/dashboard/articles/new`);
    await page.locator("#field-title").fill(ARTICLE);
    await page.locator("#field-category").selectOption("events");
    await page.getByLabel("No", { exact: true }).check();
    await page.getByLabel(/Article body/).fill("First paragraph.\n\nSecond <b>paragraph</b>.");
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#999" } }).jpeg().toBuffer();
    await page.locator("#field-photo").setInputFiles({ name: "a.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await page.getByRole("button", { name: "ADD ARTICLE" }).click();
    await status("Article has been added successfully.");
    await page.goto(`${base}/dashboard/articles?q=${encodeURIComponent(ARTICLE)}`);
    await page.getByRole("button", { name: `Delete ${ARTICLE}` }).click();
    await page.getByRole("region", { name: "Are you sure you want to delete this?" }).getByRole("button", { name: `Delete ${ARTICLE}` }).click();
    await status("Article has been deleted successfully.");
  });
});

describe("public pages", () => {
  it("never load the article editor", async () => {
    const { context: ctx, page: p } = await newPage(browser);
    const scripts: string[] = [];
    p.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    for (const path of ["/", "/insights", "/team"]) {
      await p.goto(`${base}${path}`);
      await p.waitForLoadState("networkidle");
    }
    expect(scripts.filter((s) => /rich-text-editor|tiptap|prosemirror/i.test(s))).toEqual([]);
    await ctx.close();
  });
});

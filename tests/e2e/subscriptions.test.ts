/**
 * Insight subscriptions in Chromium (issue 31): the /subscribe form, a
 * plain HTML form (the consent box never ticked beforehand, not even after a
 * mistake; messages under the fields; the same neutral answer), checked by
 * the three accessibility checkers; and the subscriber e-mails' HTML opened
 * in Chromium and checked with axe (language, alt text, contrast) and the
 * other two checkers.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnvForTests } from "~/.server/env";
import { articleMessage, confirmationMessage } from "~/.server/subscriptions/messages";
import { runA11yCheckers } from "./a11y-checkers";
import { launchBrowser, newPage, sharedServerUrl } from "./support";

/** An answer's timing token allows sending this long after it was rendered (the minimum 3 s). */
const ANSWER_WAIT_MS = 3_300;

let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  base = sharedServerUrl();
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const consentBox = () => page.getByRole("checkbox", { name: /I agree to receive e-mail from Harrow Kline LLP/ });

describe("the sign-up form (a plain HTML form)", () => {
  it("asks for consent with an unticked box of its own, and passes the three checkers", async () => {
    const res = await page.goto(`${base}/subscribe`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=5");
    expect(await consentBox().isChecked()).toBe(false);
    const label = await page.locator('label[for="subscribe-consent"]').textContent();
    expect(label).toMatch(/Harrow Kline LLP \(100 Wellington Street West.*416-555-0142.*info@harrowkline\.example\)/);
    expect(label).toMatch(/withdraw my consent at any time/);
    for (const topic of ["Insurance Defence", "Construction Disputes", "Cyber Security & Incident Response", "Firm news"]) {
      expect(await page.getByRole("checkbox", { name: topic, exact: true }).isChecked()).toBe(false);
    }
    expect(await runA11yCheckers(page)).toEqual([]);
  });

  it("shows what is missing, keeps the address, and still does not tick the consent box", async () => {
    await page.getByRole("textbox", { name: /^E-mail/ }).fill("reader@example.com");
    await consentBox().check();
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.locator("#subscribe-topics-error").waitFor();
    expect(await page.getByRole("textbox", { name: /^E-mail/ }).inputValue()).toBe("reader@example.com");
    expect(await consentBox().isChecked()).toBe(false);
    expect(await runA11yCheckers(page)).toEqual([]);
  });

  it("answers the same neutral message once sent", async () => {
    await page.waitForTimeout(ANSWER_WAIT_MS);
    await page.getByRole("checkbox", { name: "Firm news", exact: true }).check();
    await consentBox().check();
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("If this address can be subscribed, we have sent it an e-mail");
    expect(await runA11yCheckers(page)).toEqual([]);
  });

  it("is linked from /insights, from an article and from the footer", async () => {
    await page.goto(`${base}/insights`);
    expect(await page.getByRole("link", { name: "Receive insights by e-mail" }).getAttribute("href")).toBe("/subscribe");
    expect(
      await page.getByRole("navigation", { name: "Footer: The firm" }).getByRole("link", { name: "subscribe" }).getAttribute("href"),
    ).toBe("/subscribe");
    const article = await page.locator('section[aria-label="Articles"] a[href^="/post/"]').first().getAttribute("href");
    await page.goto(`${base}${article}`);
    expect(await page.getByRole("link", { name: "Subscribe to insights" }).getAttribute("href")).toBe("/subscribe");
  });
});

describe("the subscriber e-mails in Chromium", () => {
  beforeAll(() => {
    setEnvForTests({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "mail-html-")),
      AUTH_SECRET: "x".repeat(40),
      PUBLIC_URL: "https://www.harrowkline.example",
    });
  });

  it("the confirmation request and an article: language set, no image without text, contrast and structure pass", async () => {
    const confirmation = await confirmationMessage({
      confirmUrl: "https://www.harrowkline.example/subscribe/confirm/abc",
      topics: ["insurance", "news"],
    });
    const article = await articleMessage(
      {
        title: "Duty to defend after a late notice",
        summary: "What the Court of Appeal decided, and what it means for insurers.",
        url: "https://www.harrowkline.example/post/duty-to-defend",
        topicLabel: "Insurance Defence",
        date: "Monday, March 3, 2025",
      },
      {
        preferencesUrl: "https://www.harrowkline.example/subscribe/preferences/t",
        oneClickUrl: "https://www.harrowkline.example/subscribe/one-click/t",
      },
    );
    for (const [name, html] of [
      ["confirmation", confirmation.html],
      ["article", article.html],
    ] as const) {
      await page.setContent(html);
      expect(await page.evaluate(() => document.documentElement.lang), name).toBe("en");
      expect(await page.locator("img:not([alt])").count(), name).toBe(0);
      expect(await page.getByText("100 Wellington Street West").count(), name).toBeGreaterThan(0);
      expect(await runA11yCheckers(page, ["axe"]), name).toEqual([]);
    }
  });
});

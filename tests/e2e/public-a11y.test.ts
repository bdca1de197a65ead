/** axe-core (WCAG 2.1 A/AA) on every public page, at desktop and phone sizes: zero violations. */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe, launchBrowser, sharedServerUrl } from "./support";
import { DESKTOP, hydrated, PHONE, scrollThrough, trackedPage } from "./public-helpers";

let browser: Browser;
let base: string;
beforeAll(async () => {
  browser = await launchBrowser();
  base = sharedServerUrl();
});
afterAll(async () => {
  await browser?.close();
});

const PAGES = [
  "/",
  "/team",
  "/lawyer/Eleanor-Whitcombe",
  "/lawyer/Patrick-Lindqvist",
  "/insights",
  "/insights?category=events",
  "/insights?page=3",
  "/post/Firm-Expands-Cyber-Incident-Response-Team",
  "/insurance",
  "/insurance?tab=team",
  "/cyber?tab=team",
  "/construction?tab=insights",
  "/cyber",
  "/disclaimer",
  "/accessibility",
  "/copyright",
  "/no-such-page",
  "/lawyer/Nobody-Here",
  "/post/No-Such-Article",
];

describe.each([
  ["desktop", DESKTOP],
  ["phone", PHONE],
])("axe at %s size", (_name, viewport) => {
  it("reports no violations on any public page", async () => {
    const { context, page, errors } = await trackedPage(browser, { viewport });
    const found: Record<string, unknown> = {};
    for (const path of PAGES) {
      await page.goto(base + path);
      await hydrated(page);
      await scrollThrough(page);
      const violations = await axe(page);
      if (violations.length) found[path] = violations;
    }
    if (viewport === PHONE) {
      await page.goto(base + "/team");
      await hydrated(page);
      await page.getByRole("button", { name: "Menu" }).click();
      const violations = await axe(page);
      if (violations.length) found["menu open"] = violations;
    } else {
      // The home navigation once scrolled (solid) as well as over the hero.
      await page.goto(base + "/");
      await hydrated(page);
      await page.evaluate(() => window.scrollTo(0, 400));
      await page.waitForTimeout(400);
      const violations = await axe(page);
      if (violations.length) found["home scrolled"] = violations;
    }
    expect(found).toEqual({});
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    await context.close();
  });

  it("shows a visible focus ring and a working skip link", async () => {
    const { context, page } = await trackedPage(browser, { viewport });
    await page.goto(base + "/insights");
    await hydrated(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    expect(await skip.isVisible()).toBe(true);
    const outline = await skip.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).toBe("solid");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    // The next focus is inside main.
    expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
    await context.close();
  });
});

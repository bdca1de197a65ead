/**
 * Site search in Chromium, with JavaScript off and on: the header reaches
 * /search (a link without JavaScript, a search box with it), results with
 * highlighted words, the kind filter, paging, the empty and no-result pages,
 * odd queries, and the keyboard.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { DESKTOP, enhanced, PHONE, scriptPaths, trackedPage } from "./public-helpers";

const status = (page: Page) => page.locator("#search-status h2").textContent();
const resultTitles = (page: Page) => page.locator("main ol[aria-label=Results] h3").allTextContents();
const kinds = (page: Page) => page.getByRole("navigation", { name: "Kind of result" });
const pager = (page: Page) => page.getByRole("navigation", { name: "Pagination" });

describe("/search without JavaScript", () => {
  it("is reached from the header's link and searches with a plain form", async ({ browser, base }) => {
    const { context, page, errors, scripts } = await trackedPage(browser, { javaScriptEnabled: false, viewport: DESKTOP });
    await page.goto(base + "/team");
    const link = page.locator("header").getByRole("link", { name: "Search" });
    expect(await link.getAttribute("href")).toBe("/search");
    await link.click();
    await page.waitForURL(/\/search$/);
    expect(await status(page)).toBe("Type a name, a subject or a few words and press Search.");
    const form = page.getByRole("search", { name: "Site search" });
    expect(await form.getAttribute("method")).toBe("get");
    const box = form.getByLabel("Search lawyers, insights and practice areas");
    await box.fill("insurance");
    await box.press("Enter");
    await page.waitForURL(/\/search\?q=insurance$/);
    expect(await status(page)).toMatch(/^\d+ results for “insurance”, 1–10 shown$/);
    // The count is at the start of the title too: a screen reader reads it as the results page loads.
    expect(await page.title()).toBe(`${await status(page)} | Harrow Kline LLP`);
    const titles = await resultTitles(page);
    expect(titles).toHaveLength(10);
    expect(titles).toContain("Insurance Defence");
    expect(await page.locator("main ol mark").first().textContent()).toMatch(/insur/i);
    expect(await box.inputValue()).toBe("insurance");
    // Kind filter: a link that keeps the words.
    await kinds(page)
      .getByRole("link", { name: /^Lawyers/ })
      .click();
    await page.waitForURL(/\/search\?q=insurance&kind=lawyers$/);
    expect(
      await kinds(page)
        .getByRole("link", { name: /^Lawyers/ })
        .getAttribute("aria-current"),
    ).toBe("page");
    const lawyerKinds = await page.locator("main ol[aria-label=Results] article > p:first-child").allTextContents();
    expect(lawyerKinds.length).toBeGreaterThan(0);
    expect(lawyerKinds.every((k) => k.startsWith("Lawyers"))).toBe(true);
    // Paging over all kinds.
    await kinds(page)
      .getByRole("link", { name: /^All results/ })
      .click();
    await page.waitForURL(/\/search\?q=insurance$/);
    const first = await resultTitles(page);
    await pager(page).getByRole("link", { name: "Page 2" }).click();
    await page.waitForURL(/\/search\?q=insurance&page=2$/);
    const second = await resultTitles(page);
    expect(second.length).toBeGreaterThan(0);
    expect(second.some((t) => first.includes(t))).toBe(false);
    expect(await status(page)).toMatch(/, 11–\d+ shown$/);
    expect(errors).toEqual([]);
    expect(scripts).toEqual([]);
    await context.close();
  });

  it("says when nothing matched, with links to the team and insights", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    await page.goto(base + "/search?q=qqqzzz");
    expect(await status(page)).toBe("No results for “qqqzzz”");
    expect(await page.title()).toBe("No results for “qqqzzz” | Harrow Kline LLP");
    expect(await page.locator("main").getByRole("link", { name: "our team" }).getAttribute("href")).toBe("/team");
    expect(await page.locator("main").getByRole("link", { name: "news & insights" }).getAttribute("href")).toBe("/insights");
    await context.close();
  });

  it("answers odd queries with a page", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { javaScriptEnabled: false, viewport: DESKTOP });
    for (const q of [`"`, "&|!:*()", "\u0000", "<script>alert(1)</script>", "x".repeat(2000)]) {
      const response = await page.goto(`${base}/search?q=${encodeURIComponent(q)}`);
      expect(response?.status(), q.slice(0, 20)).toBe(200);
      expect(await status(page)).toMatch(/^No results for “|^Type a name/);
    }
    expect(await page.getByText("Only the first 200 characters were searched.").count()).toBe(1);
    await context.close();
  });
});

describe("/search with JavaScript", () => {
  it("opens the header's search box, searches, and closes it with Escape", async ({ browser, base }) => {
    const { context, page, errors, scripts } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insights");
    await enhanced(page);
    const header = page.locator("header");
    expect(await header.getByRole("link", { name: "Search" }).count()).toBe(0);
    const button = header.getByRole("button", { name: "Search" });
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    await button.click();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    const input = header.getByLabel("Search the site");
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Escape");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await input.isVisible()).toBe(false);
    await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
    // Open again by keyboard and search for a name as it is typed.
    await page.keyboard.press("Enter");
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("whitc");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/search\?q=whitc$/);
    await enhanced(page);
    expect(await status(page)).toBe("1 result for “whitc”");
    expect(await resultTitles(page)).toEqual(["Eleanor Whitcombe"]);
    // A typo still finds the name.
    await page.getByLabel("Search lawyers, insights and practice areas").fill("Witcombe");
    await page.getByLabel("Search lawyers, insights and practice areas").press("Enter");
    await page.waitForURL(/\/search\?q=Witcombe$/);
    expect(await status(page)).toBe("1 result for “Witcombe” (close matches)");
    // On /search the header button moves to the page's own box.
    await header.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("search-q");
    expect(errors).toEqual([]);
    expect(scriptPaths(scripts).every((s) => !/react|router|chunk/i.test(s))).toBe(true);
    await context.close();
  });

  it("moves between the kind filters with the arrow keys and follows one with Enter", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/search?q=cyber");
    await enhanced(page);
    const all = kinds(page).getByRole("link", { name: /^All results/ });
    await all.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toMatch(/^Lawyers/);
    await page.keyboard.press("Enter");
    await page.waitForURL(/kind=lawyers/);
    expect(
      await kinds(page)
        .getByRole("link", { name: /^Lawyers/ })
        .getAttribute("aria-current"),
    ).toBe("page");
    expect(errors).toEqual([]);
    await context.close();
  });
});

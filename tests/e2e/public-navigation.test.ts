/**
 * The frame's behaviour: the navigation style switch, the hamburger menu at
 * a phone width, section scrolling (go home, 120 ms, target minus 30 px),
 * the logo, and the spec's loading texts during client navigation.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sharedServerUrl } from "./support";
import { DESKTOP, hydrated, PHONE, topOf, trackedPage } from "./public-helpers";

let browser: Browser;
let base: string;
beforeAll(async () => {
  browser = await launchBrowser();
  base = sharedServerUrl();
});
afterAll(async () => {
  await browser?.close();
});

const solid = (page: Page) => page.locator("header").getAttribute("data-solid");

describe("navigation style", () => {
  it("is transparent over the home hero, solid after more than 5 px of scroll, and solid on other pages", async () => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    expect(await solid(page)).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 5));
    await page.waitForTimeout(100);
    expect(await solid(page)).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 6));
    await expect.poll(() => solid(page)).toBe("true");
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => solid(page)).toBe("false");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "our team" }).click();
    await page.waitForURL(/\/team$/);
    await expect.poll(() => solid(page)).toBe("true");
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "our team" }).getAttribute("aria-current")).toBe("page");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("logo goes home and to the top", async () => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insights");
    await hydrated(page);
    await page.getByRole("link", { name: /^Harrow Kline LLP home page$/ }).click();
    await page.waitForURL(base + "/");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.getByRole("link", { name: /^Harrow Kline LLP home page$/ }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 3000 }).toBe(0);
    await context.close();
  });
});

describe("hamburger menu at 390 px", () => {
  it("opens and closes with aria-expanded, lists Disclaimer and Copyright, and closes on link click", async () => {
    const { context, page, errors } = await trackedPage(browser, { viewport: PHONE });
    await page.goto(base + "/insights");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Menu" });
    const menu = page.locator("#mobile-menu");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await button.getAttribute("aria-controls")).toBe("mobile-menu");
    expect(await menu.isVisible()).toBe(false);
    // The desktop list is hidden at this width.
    expect(await page.locator('nav[aria-label="Main"] ul').first().isVisible()).toBe(false);
    await button.click();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    expect(await menu.isVisible()).toBe(true);
    const labels = await menu.getByRole("link").allTextContents();
    expect(labels).toEqual(["about us", "Insurance", "construction", "cyber", "our team", "news & insights", "contact", "Disclaimer", "Copyright"]);
    await menu.getByRole("link", { name: "Disclaimer" }).click();
    await page.waitForURL(/\/disclaimer$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Disclaimer");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await menu.isVisible()).toBe(false);
    // A section link closes it too.
    await button.click();
    await menu.getByRole("link", { name: "contact" }).click();
    await page.waitForURL(base + "/");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("is operable by keyboard: Enter opens, Tab reaches the links, Enter follows one, Escape closes", async () => {
    const { context, page } = await trackedPage(browser, { viewport: PHONE });
    await page.goto(base + "/team");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Menu" });
    // Skip link, logo, then the menu button.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to main content");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Menu");
    await page.keyboard.press("Enter");
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Escape");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Menu");
    await page.keyboard.press("Space");
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Tab"); // about us
    await page.keyboard.press("Tab"); // Insurance
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Insurance");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/insurance$/);
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => page.locator("h1").textContent()).toBe("Insurance Defence");
    await context.close();
  });

  it("works before the page's code has run and without JavaScript: Menu shows the links, and they work", async () => {
    const { context, page } = await trackedPage(browser, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(base + "/insights");
    const menu = page.locator("#mobile-menu");
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole("link", { name: "Menu" }).click();
    expect(await menu.isVisible()).toBe(true);
    const labels = await menu.getByRole("link").allTextContents();
    expect(labels).toEqual(["about us", "Insurance", "construction", "cyber", "our team", "news & insights", "contact", "Disclaimer", "Copyright"]);
    await menu.getByRole("link", { name: "our team" }).click();
    await page.waitForURL(/\/team$/);
    expect(await page.locator("h1").textContent()).toBe("Our Team");
    expect(await menu.isVisible()).toBe(false);
    await context.close();

    // Opened before hydration: still open once the code has run, now as the disclosure button.
    const js = await trackedPage(browser, { viewport: PHONE });
    await js.page.goto(base + "/insights#mobile-menu");
    await hydrated(js.page);
    const button = js.page.getByRole("button", { name: "Menu" });
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    expect(await js.page.locator("#mobile-menu").isVisible()).toBe(true);
    await button.click();
    expect(await js.page.locator("#mobile-menu").isVisible()).toBe(false);
    await js.context.close();
  });
});

describe("section scrolling", () => {
  async function expectLandsAt(page: Page, selector: string) {
    await expect.poll(() => topOf(page, selector).then(Math.round), { timeout: 4000 }).toBeGreaterThanOrEqual(28);
    await expect.poll(() => topOf(page, selector).then(Math.round), { timeout: 4000 }).toBeLessThanOrEqual(32);
  }

  it("from another page: goes home, then scrolls to the section minus 30 px", async () => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/team");
    await hydrated(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "contact" }).click();
    await page.waitForURL(base + "/");
    await expectLandsAt(page, "#contact");
    // Focus moves to the section for keyboard and screen-reader users, when the scroll ends (its last
    // frames are already within a pixel or two of the place, so the position alone does not say it ended).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("contact");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "about us" }).click();
    await expectLandsAt(page, "#about");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("animates (not a jump) and waits before scrolling; DISCOVER MORE scrolls to about", async () => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    const samples = page.evaluate(async () => {
      const ys: number[] = [];
      const start = performance.now();
      while (performance.now() - start < 1000) {
        ys.push(window.scrollY);
        await new Promise((r) => requestAnimationFrame(r));
      }
      return ys;
    });
    await page.getByRole("link", { name: "DISCOVER MORE" }).click();
    const ys = await samples;
    const distinct = new Set(ys.map(Math.round));
    expect(distinct.size).toBeGreaterThan(5); // intermediate positions: an animation
    await expectLandsAt(page, "#about");
    await context.close();
  });

  it("is instant with prefers-reduced-motion", async () => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, reducedMotion: "reduce" });
    await page.goto(base + "/");
    await hydrated(page);
    expect(await page.locator(".fade-pending").count()).toBe(0);
    await page.getByRole("link", { name: "DISCOVER MORE" }).click();
    await page.waitForTimeout(250);
    expect(Math.round(await topOf(page, "#about"))).toBe(30);
    await context.close();
  });

  it("the practice page CONTACT button returns home to the contact section", async () => {
    const { context, page } = await trackedPage(browser, { viewport: PHONE });
    await page.goto(base + "/construction");
    await hydrated(page);
    await page.getByRole("link", { name: "CONTACT", exact: true }).click();
    await page.waitForURL(base + "/");
    await expectLandsAt(page, "#contact");
    await context.close();
  });
});

describe("fade-in", () => {
  it("hides off-screen sections only after hydration and reveals each once in view", async () => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    const html = await (await fetch(base + "/")).text();
    expect(html).not.toContain("fade-pending");
    await page.goto(base + "/");
    await hydrated(page);
    await expect.poll(() => page.locator("#contact.fade-pending").count()).toBe(1);
    await page.locator("#contact").scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator("#contact.fade-pending").count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    expect(await page.locator("#contact.fade-pending").count()).toBe(0);
    await context.close();
  });
});

describe("loading texts during client navigation", () => {
  async function slow(page: Page, pattern: RegExp) {
    await page.route(pattern, async (route) => {
      await new Promise((r) => setTimeout(r, 1200));
      await route.continue();
    });
  }

  it("shows the spec's text for the page being loaded", async () => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/");
    await hydrated(page);
    const cases: { click: () => Promise<void>; pattern: RegExp; text: string; h1: string }[] = [
      {
        click: () => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "our team" }).click(),
        pattern: /\/team\.data/,
        text: "Loading team members...",
        h1: "Our Team",
      },
      {
        click: () => page.getByRole("link", { name: /Sofia Marchetti/ }).click(),
        pattern: /\/lawyer\/Sofia-Marchetti\.data/,
        text: "Loading...",
        h1: "Sofia Marchetti",
      },
      {
        click: () => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "news & insights" }).click(),
        pattern: /\/insights\.data/,
        text: "Loading articles...",
        h1: "News & Insights",
      },
      {
        click: () => page.getByRole("link", { name: "Prompt Payment and Adjudication: Two Years of Decisions" }).click(),
        pattern: /\/post\/[^/]+\.data/,
        text: "Loading article...",
        h1: "Prompt Payment and Adjudication: Two Years of Decisions",
      },
    ];
    for (const c of cases) {
      await slow(page, c.pattern);
      await c.click();
      await page.getByText(c.text, { exact: true }).waitFor({ state: "visible", timeout: 3000 });
      expect(await page.getByRole("status").first().textContent()).toBe(c.text);
      await expect.poll(() => page.locator("h1").first().textContent(), { timeout: 5000 }).toBe(c.h1);
      await page.unroute(c.pattern);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows Loading articles... while the filter changes and Loading team members... while a practice tab loads", async () => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insights");
    await hydrated(page);
    await slow(page, /\/insights\.data/);
    await page.getByRole("link", { name: "events" }).click();
    await page.getByText("Loading articles...", { exact: true }).waitFor({ timeout: 3000 });
    await page.waitForURL(/category=events/);
    await page.getByText("Loading articles...", { exact: true }).waitFor({ state: "detached", timeout: 5000 });
    await page.goto(base + "/cyber");
    await hydrated(page);
    await slow(page, /\/cyber\.data/);
    await page.getByRole("link", { name: "Team", exact: true }).click();
    await page.getByText("Loading team members...", { exact: true }).waitFor({ timeout: 3000 });
    await page.waitForURL(/tab=team/);
    await page.getByText("Loading team members...", { exact: true }).waitFor({ state: "detached", timeout: 5000 });
    await context.close();
  });
});

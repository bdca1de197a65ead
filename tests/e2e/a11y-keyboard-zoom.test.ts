/**
 * WCAG 2.1 AA checks that axe cannot make: the keyboard focus order of the
 * mobile menu and of the practice tabs (arrow keys among the tabs; the tab
 * or filter used keeps the focus on the page it loads), the dashboard's
 * status messages announced (a live
 * region present before the message, the message inside it after a save),
 * and every public page usable at 320 CSS px and at 200 % zoom without
 * horizontal scrolling (WCAG 1.4.10 reflow, 1.4.4 resize text).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { axe } from "./support";
import { DESKTOP, enhanced, MAIN_NAV_LINKS, MOBILE_MENU_LINKS, PHONE, trackedPage } from "./public-helpers";

/** The accessible name of the focused element (aria-label, else its text), or its id for a non-control. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "(body)";
    const name = el.getAttribute("aria-label") ?? el.innerText ?? el.textContent ?? "";
    return name.replace(/\s+/g, " ").trim() || `#${el.id}`;
  });
}

async function tabSequence(page: Page, count: number, key = "Tab"): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press(key);
    names.push(await focused(page));
  }
  return names;
}

const capitals = (names: string[]) => names.map((n) => n.toUpperCase());
/** The phone menu's links as focus reads them out (in capitals, as shown). */
const MENU = capitals(MOBILE_MENU_LINKS);

describe("focus order", () => {
  it("mobile menu: skip link, logo, Search, Menu; then the menu's links in order; Shift+Tab walks back; Escape returns to the button", async ({
    browser,
    base,
  }) => {
    const { context, page } = await trackedPage(browser, { viewport: PHONE });
    await page.goto(base + "/team");
    await enhanced(page);
    expect(await tabSequence(page, 4)).toEqual(["Skip to main content", "Harrow Kline LLP home page", "Search", "Menu"]);
    // Closed, the menu's links are not in the tab order: the next stop is in the page.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("#mobile-menu"))).toBe(false);
    await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toBe("Menu");

    await page.keyboard.press("Enter");
    expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("true");
    expect(capitals(await tabSequence(page, MENU.length))).toEqual(MENU);
    // After the last entry, focus leaves the menu for the page's content (not a hidden desktop link).
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
    // Backwards through the menu to the button.
    expect(capitals(await tabSequence(page, MENU.length + 1, "Shift+Tab"))).toEqual([...MENU].reverse().concat("MENU"));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
    expect(await focused(page)).toBe("Menu");
    expect(await page.locator("#mobile-menu").isVisible()).toBe(false);
    await context.close();
  });

  it("practice tabs: after the main navigation (and Search) come Overview, Team, Insights; choosing one keeps focus on it (on the page it loads) and moves aria-current", async ({
    browser,
    base,
  }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/cyber");
    await enhanced(page);
    const sequence = (await tabSequence(page, 14)).map((n) => n.toUpperCase());
    expect(sequence).toEqual([
      "SKIP TO MAIN CONTENT",
      "HARROW KLINE LLP HOME PAGE",
      ...capitals(MAIN_NAV_LINKS),
      "SEARCH",
      "OVERVIEW",
      "TEAM",
      "INSIGHTS",
    ]);
    const tabs = page.getByRole("navigation", { name: "Cyber Security & Incident Response sections" });
    expect(await tabs.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");
    await page.keyboard.press("Shift+Tab"); // back to Team
    expect(await focused(page)).toMatch(/^team$/i);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/cyber\?tab=team$/);
    await enhanced(page);
    await expect.poll(() => tabs.getByRole("link", { name: "Team" }).getAttribute("aria-current")).toBe("page");
    await expect.poll(() => focused(page)).toMatch(/^team$/i);
    expect(await tabs.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBeNull();
    // Tab, Tab: past Insights into the panel: its filters (issue 33: language, role, name, Filter), then the first lawyer of the practice.
    await page.keyboard.press("Tab");
    expect(await focused(page)).toMatch(/^insights$/i);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("team-language");
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href") ?? "")).toMatch(/^\/lawyer\//);
    await context.close();
  });
});

describe("tab bars by keyboard", () => {
  it("practice tabs: arrow keys move between Overview, Team and Insights (wrapping), Home/End to the ends; Enter opens one", async ({
    browser,
    base,
  }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insurance");
    await enhanced(page);
    const tabs = page.getByRole("navigation", { name: "Insurance Defence sections" });
    await tabs.getByRole("link", { name: "Overview" }).focus();
    const keys: [string, RegExp][] = [
      ["ArrowRight", /^team$/i],
      ["ArrowRight", /^insights$/i],
      ["ArrowRight", /^overview$/i],
      ["ArrowLeft", /^insights$/i],
      ["Home", /^overview$/i],
      ["End", /^insights$/i],
      ["ArrowLeft", /^team$/i],
    ];
    for (const [key, name] of keys) {
      await page.keyboard.press(key);
      expect(await focused(page), key).toMatch(name);
    }
    // Moving the focus loads nothing; Enter does.
    expect(page.url()).toBe(base + "/insurance");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/insurance\?tab=team$/);
    await enhanced(page);
    expect(await tabs.getByRole("link", { name: "Team" }).getAttribute("aria-current")).toBe("page");
    await expect.poll(() => focused(page)).toMatch(/^team$/i);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("without JavaScript the tabs and filters are links in the tab order: Tab reaches them, Enter opens them", async ({
    browser,
    base,
  }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/insights");
    await page.getByRole("navigation", { name: "Filter articles" }).getByRole("link", { name: "insurance" }).focus();
    await page.keyboard.press("Tab");
    expect(await focused(page)).toMatch(/^construction$/i);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/insights\?category=construction$/);
    expect(
      await page
        .getByRole("navigation", { name: "Filter articles" })
        .getByRole("link", { name: "construction" })
        .getAttribute("aria-current"),
    ).toBe("page");
    await page.goto(base + "/cyber");
    await page
      .getByRole("navigation", { name: /sections$/ })
      .getByRole("link", { name: "Overview" })
      .focus();
    await page.keyboard.press("Tab");
    expect(await focused(page)).toMatch(/^team$/i);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/cyber\?tab=team$/);
    expect(await page.locator("main ul[data-layout] h3").allTextContents()).toEqual(["Rajiv Menon", "Benjamin Okafor", "Hiroshi Tanaka"]);
    await context.close();
  });

  it("a filter change keeps the focus on the filter that was used", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insights");
    await enhanced(page);
    const cyber = page.getByRole("navigation", { name: "Filter articles" }).getByRole("link", { name: "cyber" });
    await cyber.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/category=cyber/);
    await enhanced(page);
    expect(await cyber.getAttribute("aria-current")).toBe("page");
    await expect.poll(() => focused(page)).toMatch(/^cyber$/i);
    // Arrow keys work in the filter bar too.
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toMatch(/^news$/i);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("dashboard status messages", () => {
  it("are announced: one polite live region, present before the save, holds the spec's text after it", async ({ staffPage, base }) => {
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/dashboard/hours/edit`);
    await page.locator('main[data-hydrated="true"]').waitFor();
    await page.waitForLoadState("networkidle");
    const region = page.getByRole("status");
    expect(await region.count()).toBe(1);
    expect(await region.getAttribute("aria-live")).toBe("polite");
    expect((await region.textContent())?.trim()).toBe("");
    // Mark the region: the message must arrive in this same element (a region created with its text is not announced).
    await region.evaluate((el) => el.setAttribute("data-before-save", "yes"));
    const start = await page.getByLabel("Start time").inputValue();
    await page.getByLabel("Start time").fill(start);
    await page.getByRole("button", { name: "SAVE HOURS" }).click();
    await expect.poll(() => region.textContent(), { timeout: 15_000 }).toContain("Hours updated successfully!");
    expect(await region.getAttribute("data-before-save")).toBe("yes");
    // An error is announced in the same region.
    await page.getByLabel("Start time").fill("  ");
    await page.getByRole("button", { name: "SAVE HOURS" }).click();
    await expect.poll(() => region.textContent(), { timeout: 15_000 }).toContain("Start and end times cannot be blank");
    expect(await region.getAttribute("data-before-save")).toBe("yes");
  });
});

const PAGES = [
  "/",
  "/team",
  "/lawyer/Eleanor-Whitcombe",
  "/lawyer/Patrick-Lindqvist",
  "/insights",
  "/insights?category=construction",
  "/post/Firm-Expands-Cyber-Incident-Response-Team",
  "/post/Partner-Sofia-Marchetti-Named-to-Construction-Law-Section-Executive",
  "/insurance",
  "/construction?tab=team",
  "/cyber",
  "/cyber?tab=insights",
  "/disclaimer",
  "/accessibility",
  "/copyright",
  "/contact",
  "/no-such-page",
];

/** Elements wider than the viewport (for the failure message). */
function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const width = root.clientWidth;
    const culprits = Array.from(document.querySelectorAll<HTMLElement>("body *"))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > width + 1 && getComputedStyle(el).position !== "fixed";
      })
      .slice(0, 5)
      .map(
        (el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} right=${Math.round(el.getBoundingClientRect().right)}`,
      );
    return { scrollWidth: root.scrollWidth, clientWidth: width, culprits };
  });
}

describe.each([
  ["320 CSS px wide (phone)", { viewport: { width: 320, height: 640 } }],
  // 200 % zoom of a 1280×800 window: 640×400 CSS px at a device pixel ratio of 2.
  ["200 % zoom", { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 }],
])("reflow at %s", (_name, options) => {
  it("every public page has no horizontal scrolling, and its heading and menu are usable", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, options);
    const problems: Record<string, unknown> = {};
    for (const path of PAGES) {
      await page.goto(base + path);
      await enhanced(page);
      const result = await overflow(page);
      if (result.scrollWidth > result.clientWidth) problems[path] = result;
      // The page's heading is on screen horizontally (not cut off).
      const h1 = await page.locator("h1").first().boundingBox();
      if (!h1 || h1.x < 0 || h1.x + h1.width > result.clientWidth + 1) problems[`${path} h1`] = h1;
    }
    expect(problems).toEqual({});
    // The menu opens and every entry can be reached without scrolling sideways.
    await page.goto(base + "/team");
    await enhanced(page);
    await page.getByRole("button", { name: "Menu" }).click();
    for (const label of ["about us", "news & insights", "Copyright"]) {
      const link = page.locator("#mobile-menu").getByRole("link", { name: label });
      await link.scrollIntoViewIfNeeded();
      expect(await link.isVisible(), label).toBe(true);
    }
    const result = await overflow(page);
    expect(result.scrollWidth).toBeLessThanOrEqual(result.clientWidth);
    await context.close();
  });
});

describe("the header over the home hero at Lighthouse's phone size (412×823)", () => {
  it("has its own dark ground, so its text contrast does not depend on what is under the fixed header", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, {
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(base + "/");
    await enhanced(page);
    expect(await page.locator("header").getAttribute("data-solid")).toBe("false");
    expect(await axe(page)).toEqual([]);
    await context.close();
  });
});

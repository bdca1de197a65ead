/**
 * Every public page through three accessibility checkers — axe-core (WCAG 2.1
 * A/AA), HTML_CodeSniffer (WCAG2AA) and IBM Equal Access (WCAG 2.1) — at
 * desktop and phone sizes, before scrolling and scrolled (the home header
 * changes style), with the phone menu open: zero findings. The Nu HTML
 * Checker on every public page's HTML: zero errors. (tests/e2e/a11y-checkers.ts)
 */
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { CSS_THE_CHECKER_DOES_NOT_KNOW, runA11yCheckers, validateHtml, type Finding } from "./a11y-checkers";
import { NAV_SOLID_AFTER_PX } from "~/lib/scroll";
import { DESKTOP, enhanced, enhancedPage, PHONE, PUBLIC_PAGES, scrollThrough, trackedPage, transitionsEnded } from "./public-helpers";

/** The findings of the three checkers, by state; {} when clean. */
async function check(page: Page, label: string, found: Record<string, Finding[]>) {
  const findings = await runA11yCheckers(page);
  if (findings.length) found[label] = findings;
}

describe.each([
  ["desktop", DESKTOP],
  ["phone", PHONE],
])("axe, HTML_CodeSniffer and IBM Equal Access at %s size", (_name, viewport) => {
  // Pages are checked a few at a time, each in its own browser page: most of a page's
  // time is waiting (network idle, the fade-ins' transitions), which the others' checks fill.
  it.concurrent.for(PUBLIC_PAGES)("find nothing on %s, before scrolling and scrolled", async (path, { expect, browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport });
    try {
      const found: Record<string, Finding[]> = {};
      await page.goto(base + path);
      await enhanced(page);
      // Unscrolled, as a visitor first sees the page (sections that fade in are revealed first, then back to the top).
      await scrollThrough(page);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await check(page, "top", found);
      await page.evaluate(() => window.scrollTo(0, 400));
      // On home, the header has taken the scrolled style (its script runs on the scroll event); then the transitions end.
      await page.waitForFunction(
        (after) => {
          const header = document.querySelector<HTMLElement>("header[data-site-header]");
          return header?.dataset.home !== "true" || header.dataset.scrolled === String(window.scrollY > after);
        },
        NAV_SOLID_AFTER_PX,
        { polling: 50 },
      );
      await transitionsEnded(page);
      await check(page, "scrolled", found);
      expect(found).toEqual({});
      expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** The checkers' findings on `path` (scrolled through, lazy content loaded) after a visitor opens something. */
  async function findingsWhenOpened(
    { browser, base }: { browser: Browser; base: string },
    path: string,
    label: string,
    open: (page: Page) => Promise<void>,
  ) {
    const { context, page } = await trackedPage(browser, { viewport });
    try {
      const found: Record<string, Finding[]> = {};
      await page.goto(base + path);
      await enhanced(page);
      await scrollThrough(page);
      await open(page);
      await check(page, label, found);
      return found;
    } finally {
      await context.close();
    }
  }

  if (viewport === PHONE) {
    it.concurrent.for(["/", "/team"])("find nothing on %s with the menu open", async (path, { expect, browser, base }) => {
      const found = await findingsWhenOpened({ browser, base }, path, "menu open", (page) =>
        page.getByRole("button", { name: "Menu" }).click(),
      );
      expect(found).toEqual({});
    });

    it.concurrent.for(["/team", "/team?language=fr&role=partners", "/cyber?tab=team"])(
      "find nothing on %s with the folded filters opened",
      async (path, { expect, browser, base }) => {
        const found = await findingsWhenOpened({ browser, base }, path, "filters open", (page) =>
          page.getByRole("search", { name: "Filter the team" }).locator("summary").click(),
        );
        expect(found).toEqual({});
      },
    );
  }

  it.concurrent.for(["/", "/insights"])("find nothing on %s with the header's search box open", async (path, { expect, browser, base }) => {
    const found = await findingsWhenOpened({ browser, base }, path, "search box open", async (page) => {
      await page.locator("header").getByRole("button", { name: "Search" }).click();
      await page.locator("header").getByLabel("Search the site").fill("insurance");
    });
    expect(found).toEqual({});
  });

  it("show a visible focus ring and a working skip link", async ({ browser, base }) => {
    const { context, page } = await enhancedPage(browser, base + "/insights", { viewport });
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

describe("the header over the home hero at desktop width, before scrolling", () => {
  it("stands on its own ink ground: its text passes all three checkers (not measured against the page's light ground)", async ({
    browser,
    base,
  }) => {
    const { context, page } = await enhancedPage(browser, base + "/", { viewport: DESKTOP });
    const header = page.locator("header");
    expect(await header.getAttribute("data-solid")).toBe("false");
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(19, 35, 58)");
    const findings = (await runA11yCheckers(page)).filter((f) => /contrast|G18|G145|color/i.test(f.rule));
    expect(findings).toEqual([]);
    await context.close();
  });
});

describe("the three checkers themselves", () => {
  it("each report a page's faults (an image with no text alternative, a field with no label), so a clean result means clean", async ({
    browser,
  }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    try {
      await page.setContent(
        '<!doctype html><html lang="en"><head><title>Faults</title></head><body><main><h1>Faults</h1>' +
          '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10"><input type="text"></main></body></html>',
      );
      const findings = await runA11yCheckers(page);
      expect(new Set(findings.map((f) => f.checker))).toEqual(new Set(["axe", "htmlcs", "ibm"]));
      expect(findings.map((f) => f.rule)).toEqual(expect.arrayContaining(["image-alt", "label"]));
    } finally {
      await context.close();
    }
  });
});

describe("the Nu HTML Checker", () => {
  it("reports a document's errors, in its HTML and its stylesheet, so a clean result means clean", async () => {
    const errors = await validateHtml([
      {
        name: "faults",
        html: '<!doctype html><html lang="en"><head><title>Faults</title><style>p { colr: red; }</style></head><body><p><img src="a.png"></div></body></html>',
      },
    ]);
    expect(errors.map((e) => e.document)).toEqual(errors.map(() => "faults"));
    expect(errors.map((e) => e.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^CSS: “colr”/), expect.stringMatching(/“img” element must have an “alt”/)]),
    );
  });

  // About 40 documents fetched, then checked in one run of the checker: 75 s alone, past the default 90 s beside the rest of this file.
  it("finds no error in any public page's HTML, as served (inline stylesheet included)", { timeout: 180_000 }, async ({ base }) => {
    const documents = [];
    for (const path of [...PUBLIC_PAGES, "/insights?category=cyber&page=1", "/cyber?tab=insights"]) {
      const html = await (await fetch(base + path)).text();
      expect(html.match(/<style>/g), path).toHaveLength(1);
      documents.push({ name: path, html });
    }
    expect(await validateHtml(documents, { ignore: CSS_THE_CHECKER_DOES_NOT_KNOW })).toEqual([]);
  });
});

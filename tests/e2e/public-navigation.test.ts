/**
 * The frame's behaviours, with JavaScript (the enhancement module,
 * app/enhance/) and without it: the navigation style switch, the hamburger
 * menu at a phone width, section scrolling (go home, 120 ms, target minus
 * 30 px over 500 ms, 650 ms for DISCOVER MORE), the logo, fade-ins, the
 * spec's loading texts while a slow page loads, and focus after a page load.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { DESKTOP, enhanced, enhancedPage, MOBILE_MENU_LINKS, PHONE, topOf, trackedPage } from "./public-helpers";

const solid = (page: Page) => page.locator("header").getAttribute("data-solid");
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

describe("navigation style", () => {
  it("is transparent over the home hero, solid after more than 5 px of scroll, and solid on other pages", async ({ browser, base }) => {
    const { context, page, errors } = await enhancedPage(browser, base + "/", { viewport: DESKTOP });
    expect(await solid(page)).toBe("false");
    expect(await page.locator("header").evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
    await page.evaluate(() => window.scrollTo(0, 5));
    await page.waitForTimeout(100);
    expect(await solid(page)).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 6));
    await expect.poll(() => solid(page)).toBe("true");
    // Once solid, the bar has a shadow under it and the top bar is gone.
    expect(await page.locator("header").evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe("none");
    expect(await page.locator("[data-top-bar]").isVisible()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => solid(page)).toBe("false");
    expect(await page.locator("[data-top-bar]").isVisible()).toBe(true);
    await mainNav(page).getByRole("link", { name: "our team" }).click();
    await page.waitForURL(/\/team$/);
    await enhanced(page);
    expect(await solid(page)).toBe("true");
    expect(await mainNav(page).getByRole("link", { name: "our team" }).getAttribute("aria-current")).toBe("page");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("without JavaScript: over the hero on home (scrolling away with it), solid on other pages", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/");
    expect(await solid(page)).toBe("false");
    expect(await page.locator("header").evaluate((el) => getComputedStyle(el).position)).toBe("absolute");
    expect(await page.locator("header").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(19, 35, 58)");
    await mainNav(page).getByRole("link", { name: "cyber" }).click();
    await page.waitForURL(/\/cyber$/);
    expect(await solid(page)).toBe("true");
    expect(await page.locator("header").evaluate((el) => getComputedStyle(el).position)).toBe("sticky");
    expect(await mainNav(page).getByRole("link", { name: "cyber" }).getAttribute("aria-current")).toBe("page");
    await context.close();
  });

  it("logo goes home and to the top (with JavaScript, from home: a scroll; without: a link)", async ({ browser, base }) => {
    const { context, page } = await enhancedPage(browser, base + "/insights", { viewport: DESKTOP });
    await page.getByRole("link", { name: /^Harrow Kline LLP home page$/ }).click();
    await page.waitForURL(base + "/");
    await enhanced(page);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.getByRole("link", { name: /^Harrow Kline LLP home page$/ }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 3000 }).toBe(0);
    await context.close();

    const nojs = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await nojs.page.goto(base + "/team");
    await nojs.page.getByRole("link", { name: /^Harrow Kline LLP home page$/ }).click();
    await nojs.page.waitForURL(base + "/");
    expect(await nojs.page.locator("h1").textContent()).toBe("Our reputation is built on results");
    await nojs.context.close();
  });
});

describe("hamburger menu at 390 px", () => {
  it("opens and closes with aria-expanded, lists Disclaimer and Copyright, and closes on link click", async ({ browser, base }) => {
    const { context, page, errors } = await enhancedPage(browser, base + "/insights", { viewport: PHONE });
    const button = page.getByRole("button", { name: "Menu" });
    const menu = page.locator("#mobile-menu");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await button.getAttribute("aria-controls")).toBe("mobile-menu");
    expect(await menu.isVisible()).toBe(false);
    // The link that stands in for the button without JavaScript is gone.
    expect(await page.getByRole("link", { name: "Menu" }).count()).toBe(0);
    // The desktop list is hidden at this width.
    expect(await page.locator('nav[aria-label="Main"] ul').first().isVisible()).toBe(false);
    await button.click();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    expect(await menu.isVisible()).toBe(true);
    const labels = await menu.getByRole("link").allTextContents();
    expect(labels).toEqual(MOBILE_MENU_LINKS);
    await button.click();
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await menu.isVisible()).toBe(false);
    await button.click();
    await menu.getByRole("link", { name: "Disclaimer" }).click();
    await page.waitForURL(/\/disclaimer$/);
    await enhanced(page);
    expect(await page.locator("h1").textContent()).toBe("Disclaimer");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await menu.isVisible()).toBe(false);
    // A section link closes it too (on home, where it scrolls instead of loading a page).
    await page.goto(base + "/");
    await enhanced(page);
    await button.click();
    await menu.getByRole("link", { name: "contact" }).click();
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await menu.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 4000 }).toBe("contact");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("is operable by keyboard: Enter opens, Tab reaches the links, Enter follows one, Escape closes", async ({ browser, base }) => {
    const { context, page } = await enhancedPage(browser, base + "/team", { viewport: PHONE });
    const button = page.getByRole("button", { name: "Menu" });
    // Skip link, logo, the search button, then the menu button.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to main content");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Search");
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
    await enhanced(page);
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator("h1").textContent()).toBe("Insurance Defence");
    await context.close();
  });

  it("works without JavaScript: Menu shows the links, and they work", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(base + "/insights");
    const menu = page.locator("#mobile-menu");
    expect(await menu.isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Menu" }).count()).toBe(0);
    await page.getByRole("link", { name: "Menu" }).click();
    expect(await menu.isVisible()).toBe(true);
    const labels = await menu.getByRole("link").allTextContents();
    expect(labels).toEqual(MOBILE_MENU_LINKS);
    await menu.getByRole("link", { name: "our team" }).click();
    await page.waitForURL(/\/team$/);
    expect(await page.locator("h1").textContent()).toBe("Our Team");
    expect(await menu.isVisible()).toBe(false);
    await context.close();
  });

  it("opened through its link before the code ran, stays open as the disclosure button", async ({ browser, base }) => {
    const { context, page } = await enhancedPage(browser, base + "/insights#mobile-menu", { viewport: PHONE });
    const button = page.getByRole("button", { name: "Menu" });
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator("#mobile-menu").isVisible()).toBe(true);
    await button.click();
    expect(await page.locator("#mobile-menu").isVisible()).toBe(false);
    await context.close();
  });
});

/** Scroll positions per animation frame from a click on, in the page's own clock. */
async function recordScroll(page: Page, click: () => Promise<void>, ms = 1600) {
  await page.evaluate(() => {
    const w = window as unknown as { samples: [number, number][]; clickAt: number };
    w.samples = [];
    w.clickAt = 0;
    document.addEventListener("click", () => (w.clickAt = performance.now()), { capture: true, once: true });
    const started = performance.now();
    requestAnimationFrame(function sample() {
      w.samples.push([performance.now(), window.scrollY]);
      if (performance.now() - started < 4000) requestAnimationFrame(sample);
    });
  });
  await click();
  await page.waitForTimeout(ms);
  return page.evaluate(() => {
    const w = window as unknown as { samples: [number, number][]; clickAt: number };
    return { clickAt: w.clickAt, samples: w.samples };
  });
}

/** When the scroll first moved, when it arrived, and its estimated length (ms after the click). */
function scrollTimes(clickAt: number, samples: [number, number][]) {
  const from = samples.find(([t]) => t >= clickAt)![1];
  const to = samples.at(-1)![1];
  const afterClick = samples.filter(([t]) => t >= clickAt);
  const lastStill = afterClick.filter(([, y]) => Math.abs(y - from) < 1).at(-1)![0];
  const firstMoved = afterClick.find(([, y]) => Math.abs(y - from) >= 1)![0];
  const arrived = afterClick.find(([, y]) => Math.abs(y - to) < 1)![0];
  const positions = new Set(afterClick.map(([, y]) => Math.round(y)));
  return {
    from,
    to,
    firstMoved: firstMoved - clickAt,
    arrived: arrived - clickAt,
    duration: arrived - lastStill,
    positions: positions.size,
  };
}

describe("section scrolling", () => {
  async function expectLandsAt(page: Page, selector: string) {
    await expect.poll(() => topOf(page, selector).then(Math.round), { timeout: 4000 }).toBeGreaterThanOrEqual(28);
    await expect.poll(() => topOf(page, selector).then(Math.round), { timeout: 4000 }).toBeLessThanOrEqual(32);
  }

  it("from another page: goes home, waits 120 ms, then scrolls to the section minus 30 px and focuses it", async ({ browser, base }) => {
    const { context, page, errors } = await enhancedPage(browser, base + "/team", { viewport: DESKTOP });
    // The home page records its scroll from its first frame on.
    await context.addInitScript(() => {
      const w = window as unknown as { samples: [number, number][] };
      w.samples = [];
      requestAnimationFrame(function sample() {
        w.samples.push([performance.now(), window.scrollY]);
        if (performance.now() < 6000) requestAnimationFrame(sample);
      });
    });
    await mainNav(page).getByRole("link", { name: "contact" }).click();
    await page.waitForURL(base + "/");
    await expectLandsAt(page, "#contact");
    // Focus moves to the section for keyboard and screen-reader users when the scroll ends.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("contact");
    const { samples, ready } = await page.evaluate(() => ({
      samples: (window as unknown as { samples: [number, number][] }).samples,
      // Module scripts run once the document is parsed: the 120 ms are counted from there at the earliest.
      ready: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domInteractive,
    }));
    const moved = samples.find(([, y]) => y >= 1);
    expect(moved![0] - ready).toBeGreaterThanOrEqual(120);
    expect(new Set(samples.map(([, y]) => Math.round(y))).size).toBeGreaterThan(5); // an animation, not a jump
    expect(page.url()).toBe(base + "/"); // no #fragment: the scroll is the page's own
    await mainNav(page).getByRole("link", { name: "about us" }).click();
    await expectLandsAt(page, "#about");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on home: DISCOVER MORE waits 120 ms and animates over 650 ms to about; a navigation link over 500 ms to contact", async ({
    browser,
    base,
  }) => {
    const { context, page } = await enhancedPage(browser, base + "/", { viewport: DESKTOP });
    const hero = await recordScroll(page, () => page.getByRole("link", { name: "DISCOVER MORE" }).click());
    await expectLandsAt(page, "#about");
    const slow = scrollTimes(hero.clickAt, hero.samples);
    expect(slow.positions).toBeGreaterThan(5);
    expect(slow.firstMoved).toBeGreaterThanOrEqual(120);
    expect(slow.arrived).toBeGreaterThanOrEqual(120 + 0.9 * 650);
    expect(slow.duration).toBeGreaterThanOrEqual(0.85 * 650);
    expect(slow.duration).toBeLessThanOrEqual(650 + 250);

    const nav = await recordScroll(page, () => mainNav(page).getByRole("link", { name: "contact" }).click());
    await expectLandsAt(page, "#contact");
    const normal = scrollTimes(nav.clickAt, nav.samples);
    expect(normal.firstMoved).toBeGreaterThanOrEqual(120);
    expect(normal.arrived).toBeGreaterThanOrEqual(120 + 0.9 * 500);
    expect(normal.duration).toBeGreaterThanOrEqual(0.85 * 500);
    expect(normal.duration).toBeLessThanOrEqual(500 + 250);
    await context.close();
  });

  it("is a jump with prefers-reduced-motion, and nothing fades", async ({ browser, base }) => {
    const { context, page } = await enhancedPage(browser, base + "/", { viewport: DESKTOP, reducedMotion: "reduce" });
    expect(await page.locator(".fade-pending").count()).toBe(0);
    const run = await recordScroll(page, () => page.getByRole("link", { name: "DISCOVER MORE" }).click(), 600);
    expect(Math.round(await topOf(page, "#about"))).toBe(30);
    const times = scrollTimes(run.clickAt, run.samples);
    expect(times.positions).toBeLessThanOrEqual(2); // from, to
    expect(times.firstMoved).toBeGreaterThanOrEqual(120);
    await context.close();
  });

  it("the practice page CONTACT button returns home to the contact section", async ({ browser, base }) => {
    const { context, page } = await enhancedPage(browser, base + "/construction", { viewport: PHONE });
    await page.getByRole("link", { name: "CONTACT", exact: true }).click();
    await page.waitForURL(base + "/");
    await expectLandsAt(page, "#contact");
    await context.close();
  });

  it("without JavaScript: section links are anchors to the home page's sections", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/insurance");
    await page.getByRole("link", { name: "CONTACT", exact: true }).click();
    await page.waitForURL(base + "/#contact");
    await expectLandsAt(page, "#contact");
    await mainNav(page).getByRole("link", { name: "about us" }).click();
    await page.waitForURL(base + "/#about");
    await expectLandsAt(page, "#about");
    await page.getByRole("link", { name: "DISCOVER MORE" }).click();
    expect(await page.getByRole("heading", { name: "Counsel for the moments that decide a file" }).isVisible()).toBe(true);
    await context.close();
  });
});

describe("fade-in", () => {
  it("hides only sections below the fold, and reveals each once, when 20-30 % of it is in view", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    const html = await (await fetch(base + "/")).text();
    expect(html).not.toMatch(/class="[^"]*\bfade-pending\b/); // the server renders every section visible
    await page.goto(base + "/");
    await enhanced(page);
    await expect.poll(() => page.locator("#contact.fade-pending").count()).toBe(1);
    expect(await page.locator("#about.fade-pending").count()).toBe(0); // in the first view: shown at once
    const box = await page.evaluate(() => {
      const el = document.getElementById("contact")!;
      let top = 0;
      for (let e: HTMLElement | null = el; e; e = e.offsetParent as HTMLElement | null) top += e.offsetTop;
      return { top, height: el.offsetHeight, viewport: window.innerHeight };
    });
    // The threshold: a quarter of the section, or a quarter of the window for a section taller than it.
    const threshold = Math.min(box.height, box.viewport) * 0.25;
    // 60 % of the threshold in view: still hidden.
    await page.evaluate((y) => window.scrollTo(0, y), box.top - box.viewport + Math.round(threshold * 0.6));
    await page.waitForTimeout(400);
    expect(await page.locator("#contact.fade-pending").count()).toBe(1);
    expect(await page.locator("#contact").evaluate((el) => getComputedStyle(el).opacity)).toBe("0");
    // 140 % of it: shown.
    await page.evaluate((y) => window.scrollTo(0, y), box.top - box.viewport + Math.round(threshold * 1.4));
    await expect.poll(() => page.locator("#contact.fade-pending").count()).toBe(0);
    await expect.poll(() => page.locator("#contact").evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
    // Once: back up and down again, it stays.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    expect(await page.locator("#contact.fade-pending").count()).toBe(0);
    await context.close();
  });

  it("without JavaScript every section is simply there", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/");
    await page.locator("#contact").scrollIntoViewIfNeeded();
    expect(await page.locator(".fade-pending").count()).toBe(0);
    expect(await page.locator("#contact").evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
    await context.close();
  });
});

describe("loading texts", () => {
  it("shows the spec's text for the page being loaded when it is slow to arrive, then the page", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    const cases = [
      {
        from: "/",
        link: () => mainNav(page).getByRole("link", { name: "our team" }),
        pattern: /\/team$/,
        text: "Loading team members...",
        h1: "Our Team",
      },
      {
        from: "/team",
        link: () => page.getByRole("link", { name: /Sofia Marchetti/ }),
        pattern: /\/lawyer\/Sofia-Marchetti$/,
        text: "Loading...",
        h1: "Sofia Marchetti",
      },
      {
        from: "/",
        link: () => mainNav(page).getByRole("link", { name: "news & insights" }),
        pattern: /\/insights$/,
        text: "Loading articles...",
        h1: "News & Insights",
      },
      {
        from: "/insights",
        link: () => page.getByRole("link", { name: "Prompt Payment and Adjudication: Two Years of Decisions" }),
        pattern: /\/post\/[^/]+$/,
        text: "Loading article...",
        h1: "Prompt Payment and Adjudication: Two Years of Decisions",
      },
      {
        from: "/cyber",
        link: () => page.getByRole("link", { name: "Team", exact: true }),
        pattern: /\/cyber\?tab=team$/,
        text: "Loading team members...",
        h1: "Cyber Security & Incident Response",
      },
    ];
    for (const c of cases) {
      await page.goto(base + c.from);
      await enhanced(page);
      // The next page is slow (a bad network), and not prepared in advance by the Speculation Rules.
      await page.evaluate(() => document.querySelector('script[type="speculationrules"]')?.remove());
      await page.route(c.pattern, async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      // What the status region shows is written down as it happens (the page is gone when the click returns).
      expect(await page.locator("[data-loading-status]").getAttribute("role")).toBe("status");
      await page.evaluate(() => {
        const region = document.querySelector("[data-loading-status]")!;
        sessionStorage.removeItem("status-seen");
        new MutationObserver(() => sessionStorage.setItem("status-seen", `${Math.round(performance.now())}:${region.textContent}`)).observe(
          region,
          {
            childList: true,
            characterData: true,
            subtree: true,
          },
        );
        document.addEventListener("click", () => sessionStorage.setItem("clicked-at", String(Math.round(performance.now()))), {
          capture: true,
        });
      });
      await c.link().click();
      await page.waitForURL(c.pattern);
      await expect.poll(() => page.locator("h1").first().textContent(), { timeout: 5000 }).toBe(c.h1);
      const [seenAt, seen] = ((await page.evaluate(() => sessionStorage.getItem("status-seen"))) ?? ":").split(":");
      expect(seen, c.from).toBe(c.text);
      const clickedAt = Number(await page.evaluate(() => sessionStorage.getItem("clicked-at")));
      expect(Number(seenAt) - clickedAt, c.from).toBeGreaterThanOrEqual(400); // not for a page that arrives at once
      // The new page's region is empty.
      expect(await page.locator("[data-loading-status]").textContent()).toBe("");
      await page.unroute(c.pattern);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("show nothing when the next page arrives at once", async ({ browser, base }) => {
    const { context, page } = await enhancedPage(browser, base + "/", { viewport: DESKTOP });
    await page.evaluate(() => {
      const region = document.querySelector("[data-loading-status]")!;
      new MutationObserver(() => sessionStorage.setItem("status-seen", region.textContent ?? "")).observe(region, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await mainNav(page).getByRole("link", { name: "our team" }).click();
    await page.waitForURL(/\/team$/);
    await enhanced(page);
    expect(await page.evaluate(() => sessionStorage.getItem("status-seen"))).toBeNull();
    await context.close();
  });
});

describe("focus after a page load", () => {
  it("is the browser's own: the next Tab goes to the skip link, first on every page", async ({ browser, base }) => {
    const { context, page, errors } = await enhancedPage(browser, base + "/team", { viewport: DESKTOP });
    await mainNav(page).getByRole("link", { name: "news & insights" }).click();
    await page.waitForURL(/\/insights$/);
    await enhanced(page);
    expect(await page.title()).toMatch(/^News & Insights/);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to main content");
    // Keyboard: a lawyer's card, Enter; a new page; Tab starts again at the skip link, then the page.
    await page.goto(base + "/team");
    await enhanced(page);
    await page.locator('main a[href^="/lawyer/"]').first().focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/lawyer\//);
    await enhanced(page);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to main content");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Our Team"); // the breadcrumb
    expect(errors).toEqual([]);
    await context.close();
  });
});

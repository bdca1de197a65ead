/**
 * No request to another host until the visitor asks (issue 43, item 6): every
 * public template, scrolled to its bottom at a laptop's and a phone's width,
 * with JavaScript on, asks only this site for anything: no map, font, script,
 * picture or beacon from elsewhere. Google's map is loaded only by the home
 * page's "Show the map" button (public-pages.test.ts, "the home page").
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { DESKTOP, PHONE, enhanced, scrollThrough, trackedPage } from "./public-helpers";

/** One page of each public template: home, the team list, a profile, the practice areas, a practice's tab, insights, an article, contact, subscribe, search, privacy. */
const TEMPLATES = [
  "/",
  "/team",
  "/lawyer/Eleanor-Whitcombe",
  "/insurance",
  "/cyber?tab=team",
  "/insights",
  "/post/Firm-Expands-Cyber-Incident-Response-Team",
  "/contact",
  "/subscribe",
  "/search?q=insurance",
  "/privacy",
];

/** Scrolls through the page, then to its very bottom, and lets whatever that started finish. */
async function scrollToBottom(page: Page) {
  await scrollThrough(page);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(600);
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
}

describe("public pages ask no other host for anything", () => {
  for (const [label, viewport] of [
    ["at 1280 px", DESKTOP],
    ["at 390 px", PHONE],
  ] as const) {
    it(`every template scrolled to the bottom ${label}: every request went to this site`, async ({ browser, base }) => {
      const { context, page, errors } = await trackedPage(browser, { viewport });
      const site = new URL(base).host;
      const elsewhere: string[] = [];
      let requests = 0;
      // The context's requests: the page's, its frames' and its workers'.
      context.on("request", (request) => {
        requests++;
        const url = new URL(request.url());
        if (url.protocol === "data:" || url.protocol === "blob:") return;
        if (url.host !== site) elsewhere.push(`${page.url()} → ${request.url()}`);
      });
      for (const path of TEMPLATES) {
        await page.goto(base + path);
        await enhanced(page);
        await scrollToBottom(page);
      }
      expect(elsewhere).toEqual([]);
      // The pages were really loaded (documents, styles, the module, pictures, beacons).
      expect(requests).toBeGreaterThan(TEMPLATES.length * 3);
      expect(await page.locator("iframe").count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

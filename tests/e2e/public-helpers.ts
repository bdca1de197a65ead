/** Helpers shared by the public-site browser tests (tests/e2e/public-*.test.ts). */
import type { Browser, Page } from "playwright-core";
import { FIXED_PAGES } from "../support/site-pages";
import { newPage } from "./support";

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Public pages of the demo content: the fixed pages, then one of each other kind and state (the checkers run on all of them). */
export const PUBLIC_PAGES = [
  ...FIXED_PAGES,
  "/team?language=fr&role=partners",
  "/team?role=counsel",
  "/lawyer/Eleanor-Whitcombe",
  "/lawyer/Sofia-Marchetti",
  "/lawyer/Patrick-Lindqvist",
  "/insights?category=events",
  "/insights?page=3",
  "/post/Firm-Expands-Cyber-Incident-Response-Team",
  "/events?area=insurance&format=hybrid",
  "/event/Delay-Claims-Breakfast-Seminar",
  "/event/Ethics-of-Defence-Reporting-to-Insurers",
  "/insurance?tab=team",
  "/cyber?tab=team",
  "/cyber?tab=team&role=partners",
  "/construction?tab=insights",
  "/search",
  "/search?q=insurance",
  "/search?q=insurance&kind=lawyers&page=1",
  "/search?q=insurance&page=2",
  "/search?q=qqqzzz",
  "/no-such-page",
  "/lawyer/Nobody-Here",
  "/post/No-Such-Article",
  "/event/No-Such-Event",
];

/** The main navigation's links in order, as the spec words them (CSS shows them in capitals). */
export const MAIN_NAV_LINKS = ["about us", "Insurance", "construction", "cyber", "our team", "news & insights", "events", "contact"];

/** The phone menu's links: the main navigation, then the Disclaimer and Copyright pages. */
export const MOBILE_MENU_LINKS = [...MAIN_NAV_LINKS, "Disclaimer", "Copyright"];

/** A page that records console errors, page errors and every script it loads. */
export async function trackedPage(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) {
  const { context, page } = await newPage(browser, { viewport: DESKTOP, ...options });
  const errors: string[] = [];
  const scripts: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("request", (r) => {
    if (r.resourceType() === "script" || /\.m?js(\?|$)/.test(r.url())) scripts.push(r.url());
  });
  return { context, page, errors, scripts };
}

/**
 * Waits until the public enhancement module has run (app/enhance/main.ts sets
 * <html data-enhanced>). Public pages run no React in the browser.
 */
export async function enhanced(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.enhanced === "true", undefined, { polling: 100 });
  // Best effort: lazy pictures or the map may still be loading.
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
}

/** A tracked page (trackedPage) that has opened `url` and run the public enhancement module (enhanced). */
export async function enhancedPage(browser: Browser, url: string, options: Parameters<Browser["newContext"]>[0] = {}) {
  const tracked = await trackedPage(browser, options);
  await tracked.page.goto(url);
  await enhanced(tracked.page);
  return tracked;
}

/** Every script file a page loaded, as paths (for "no framework code" checks). */
export function scriptPaths(scripts: string[]): string[] {
  return scripts.map((s) => new URL(s).pathname);
}

/**
 * Scrolls through the whole page (fade-ins reveal themselves) and back to the top. Each position is
 * held for a rendered frame: the sections' observer reports in the browser's rendering step, and on a
 * busy machine a timer alone can move on before any frame shows a section.
 */
export async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    const rendered = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 20))));
    await rendered(); // the observer's first report (which sections start below the fold)
    const step = Math.max(200, Math.floor(window.innerHeight * 0.6));
    for (let y = 0; y <= document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await rendered();
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() => document.querySelectorAll(".fade-pending").length === 0, undefined, { polling: 100 });
  await transitionsEnded(page);
}

/**
 * Waits until no transition or finite animation runs on the page (the sections' 600 ms fade-ins, the
 * header's change of style): the page as it rests, as a timer of 700 ms guessed it, but no longer than it takes.
 */
export async function transitionsEnded(page: Page) {
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { polling: 50 },
  );
}

/** The distance of an element's top from the top of the viewport. */
export function topOf(page: Page, selector: string) {
  return page.evaluate((s) => document.querySelector(s)!.getBoundingClientRect().top, selector);
}

/**
 * A screen as a person sees it on a phone (390 px) and a desktop (1280 px):
 * no sideways scroll, no findings from the three accessibility checkers, and
 * a full-page screenshot of each width to look at.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { runA11yCheckers } from "./a11y-checkers";

/** Fails when the page is wider than the window (it would scroll sideways). */
export async function expectNoSidewaysScroll(page: Page, label = "the page") {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${label} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** The screen at 390 then 1280 px (left at 1280): screenshots `<shots>/<name>-<width>.png`. */
export async function checkScreen(page: Page, name: string, shots = "/tmp") {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(100);
    await expectNoSidewaysScroll(page, `${name} at ${width} px`);
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
    expect(await runA11yCheckers(page), `${name} at ${width} px`).toEqual([]);
  }
}

import { describe, expect, it } from "./fixture";

describe("the built server", () => {
  it("serves the home page with demo content, server-rendered (not hydrated) and enhanced by its one script, without errors", async ({
    base,
    newPage,
  }) => {
    const { page, context } = await newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    const res = await page.goto(base + "/");
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.locator("h1").first().textContent()).toBeTruthy();
    await page.waitForLoadState("networkidle");
    // Public pages are never hydrated: the enhancement script marks the page, and no framework runs.
    expect(await page.evaluate(() => document.documentElement.dataset.enhanced)).toBe("true");
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});

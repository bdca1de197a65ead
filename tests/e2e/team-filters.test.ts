/**
 * The team directory's filters (issue 33) in Chromium, with JavaScript off
 * (a plain GET form) and on (the list follows each choice without a page
 * load, the count is announced, the address keeps the state); the empty
 * result and its link that clears the filters; the practice pages' Team tab;
 * the profile's new sections and its "Download bio (PDF)" link.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { DESKTOP, PHONE, enhanced, trackedPage } from "./public-helpers";

const names = (page: Page) => page.locator("[data-team-results] li h2, [data-team-results] li h3").allTextContents();
const filters = (page: Page) => page.getByRole("search", { name: "Filter the team" });
const count = (page: Page) => page.locator("[data-team-count]").textContent();

describe("/team filters without JavaScript", () => {
  it("is a GET form: the choices go into the address, and the list, the count and the form follow", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/team");
    expect(await names(page)).toHaveLength(10);
    await filters(page).getByLabel("Language").selectOption("fr");
    await filters(page).getByLabel("Role").selectOption("partners");
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/\/team\?/);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ practice: "", language: "fr", role: "partners", q: "" });
    expect(await names(page)).toEqual(["Eleanor Whitcombe", "Catherine Doyle", "Sofia Marchetti"]);
    expect(await count(page)).toBe("3 of 10 people match these filters");
    expect(await filters(page).getByLabel("Language").inputValue()).toBe("fr");
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(/\/team$/);

    await filters(page).getByLabel("Name").fill("marchetti");
    await filters(page).getByLabel("Name").press("Enter");
    await page.waitForURL(/q=marchetti/);
    expect(await names(page)).toEqual(["Sofia Marchetti"]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an empty result says so and links to the whole list", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/team?role=counsel");
    expect(await names(page)).toEqual([]);
    await expect.poll(() => page.getByText("No team members match these filters.").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Clear the filters and show everyone" }).click();
    await page.waitForURL(/\/team$/);
    expect(await names(page)).toHaveLength(10);
    await context.close();
  });

  it("the practice pages' Team tab filters the same way, within its area", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/cyber?tab=team");
    expect(await names(page)).toEqual(["Rajiv Menon", "Benjamin Okafor", "Hiroshi Tanaka"]);
    expect(await filters(page).getByLabel("Practice area").count()).toBe(0);
    await filters(page).getByLabel("Role").selectOption("associates");
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/role=associates/);
    expect(new URL(page.url()).pathname).toBe("/cyber");
    expect(new URL(page.url()).searchParams.get("tab")).toBe("team");
    expect(await names(page)).toEqual(["Benjamin Okafor", "Hiroshi Tanaka"]);
    await context.close();
  });
});

describe("/team filters with JavaScript", () => {
  it("the list follows each choice without a page load; the count is announced; the address keeps the state", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/team");
    await enhanced(page);
    // A page load would lose this.
    await page.evaluate(() => ((window as unknown as { kept: number }).kept = 1));
    const kept = () => page.evaluate(() => (window as unknown as { kept?: number }).kept);

    await filters(page).getByLabel("Practice area").selectOption("cyber");
    await expect.poll(() => names(page)).toEqual(["Rajiv Menon", "Benjamin Okafor", "Hiroshi Tanaka"]);
    expect(new URL(page.url()).search).toBe("?practice=cyber");
    expect(await page.locator("[data-team-count]").getAttribute("role")).toBe("status");
    expect(await count(page)).toBe("3 of 10 people match these filters");

    await filters(page).getByLabel("Role").selectOption("partners");
    await expect.poll(() => names(page)).toEqual(["Rajiv Menon"]);
    expect(new URL(page.url()).search).toBe("?practice=cyber&role=partners");

    await filters(page).getByLabel("Role").selectOption("");
    await filters(page).getByLabel("Name").pressSequentially("tan", { delay: 30 });
    await expect.poll(() => names(page)).toEqual(["Hiroshi Tanaka"]);
    expect(new URL(page.url()).search).toBe("?practice=cyber&q=tan");
    expect(await page.title()).toMatch(/^Our Team: Cyber Security & Incident Response, “tan” \|/);

    // Nobody: the message and a link that clears the filters, still without a page load.
    await filters(page).getByLabel("Language").selectOption("pl");
    await expect.poll(() => page.getByText("No team members match these filters.").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Clear the filters and show everyone" }).click();
    await expect.poll(() => names(page).then((n) => n.length)).toBe(10);
    expect(new URL(page.url()).search).toBe("");
    expect(await filters(page).getByLabel("Practice area").inputValue()).toBe("");
    expect(await count(page)).toBe("10 people");
    expect(await kept()).toBe(1);
    // No page is loading: the frame's loading text stays empty.
    await page.waitForTimeout(600);
    expect(await page.locator("[data-loading-status]").textContent()).toBe("");

    // The address of a filtered view shows the same view when loaded.
    await page.goto(base + "/team?language=ja");
    expect(await names(page)).toEqual(["Hiroshi Tanaka"]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the README's example", () => {
  it("of a filtered /team address finds people in the demo content", async ({ browser, base }) => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    const example = /`(\/team\?[^`]+)`/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + example!);
    expect((await names(page)).length).toBeGreaterThan(0);
    expect(await count(page)).toMatch(/^[1-9]\d* of 10 people match these filters$/);
    await context.close();
  });
});

describe("/team on a phone (390 × 844)", () => {
  const toggle = (page: Page) => filters(page).locator("summary");

  for (const js of [true, false]) {
    it(`the first lawyer is on the first screen; the filters fold into one "Filter" control (JavaScript ${js ? "on" : "off"})`, async ({
      browser,
      base,
    }) => {
      const { context, page, errors } = await trackedPage(browser, { viewport: PHONE, javaScriptEnabled: js });
      await page.goto(base + "/team");
      if (js) await enhanced(page);
      const first = page.locator("[data-team-results] li").first();
      expect(await first.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(PHONE.height);
      expect(await first.getByRole("img").isVisible()).toBe(true);
      // Folded: one control, the fields hidden until it is opened.
      expect(await toggle(page).textContent()).toBe("Filter");
      expect(await filters(page).getByLabel("Language").isVisible()).toBe(false);
      await toggle(page).click();
      expect(await filters(page).getByLabel("Language").isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
      await toggle(page).click();
      expect(await filters(page).getByLabel("Language").isVisible()).toBe(false);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("without JavaScript the folded filters still work, and the control counts the active ones", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: PHONE, javaScriptEnabled: false });
    await page.goto(base + "/team");
    await toggle(page).click();
    await filters(page).getByLabel("Language").selectOption("fr");
    await filters(page).getByLabel("Role").selectOption("partners");
    await filters(page).getByRole("button", { name: "Filter", exact: true }).click();
    await page.waitForURL(/\/team\?/);
    expect(await names(page)).toEqual(["Eleanor Whitcombe", "Catherine Doyle", "Sofia Marchetti"]);
    expect(await count(page)).toBe("3 of 10 people match these filters");
    // The new page: folded again, its control saying how many filters are on; the first match on the first screen.
    expect(await toggle(page).textContent()).toBe("Filter(2 active)");
    expect(await filters(page).getByLabel("Language").isVisible()).toBe(false);
    const first = page.locator("[data-team-results] li").first();
    expect(await first.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(PHONE.height);
    await toggle(page).click();
    expect(await filters(page).getByLabel("Language").inputValue()).toBe("fr");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("with JavaScript the control's count follows each choice", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: PHONE });
    await page.goto(base + "/team");
    await enhanced(page);
    await toggle(page).click();
    await filters(page).getByLabel("Practice area").selectOption("cyber");
    await expect.poll(() => names(page)).toEqual(["Rajiv Menon", "Benjamin Okafor", "Hiroshi Tanaka"]);
    expect(await toggle(page).textContent()).toBe("Filter(1 active)");
    await filters(page).getByLabel("Role").selectOption("associates");
    await expect.poll(() => names(page)).toEqual(["Benjamin Okafor", "Hiroshi Tanaka"]);
    expect(await toggle(page).textContent()).toBe("Filter(2 active)");
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect.poll(() => names(page).then((n) => n.length)).toBe(10);
    expect(await toggle(page).textContent()).toBe("Filter");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the profile", () => {
  it("shows the credentials in their own sections, no empty heading, and links the PDF bio", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/lawyer/Sofia-Marchetti");
    const headings = await page.locator("main h2").allTextContents();
    expect(headings).toEqual(
      expect.arrayContaining(["Bar Admissions", "Education", "Languages", "Professional Memberships", "Representative Matters"]),
    );
    expect(
      await page.getByText("Certified by the Law Society of Ontario as a Specialist in Construction Law (since 2017)").isVisible(),
    ).toBe(true);
    expect(await page.getByText("Clients are named only with their consent.").isVisible()).toBe(true);
    const bio = page.getByRole("link", { name: "Download bio (PDF)" }).first();
    expect(await bio.getAttribute("href")).toBe("/lawyer/Sofia-Marchetti/bio.pdf");
    // The two downloads look alike (issue 43): the same colours, type, case, padding and height.
    const look = (link: ReturnType<Page["locator"]>) =>
      link.evaluate((el) => {
        const s = getComputedStyle(el);
        const { height } = el.getBoundingClientRect();
        return [s.backgroundColor, s.color, s.fontSize, s.fontWeight, s.letterSpacing, s.textTransform, s.padding, s.borderWidth, height];
      });
    expect(await look(bio)).toEqual(await look(page.getByRole("link", { name: "DOWNLOAD VCARD" }).first()));
    const pdf = await page.request.get(base + "/lawyer/Sofia-Marchetti/bio.pdf");
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

    // Nothing recorded: no heading for it.
    await page.goto(base + "/lawyer/Patrick-Lindqvist");
    const patrick = await page.locator("main h2").allTextContents();
    expect(patrick).not.toContain("Bar Admissions");
    expect(patrick).not.toContain("Representative Matters");
    expect(patrick).not.toContain("Professional Memberships");
    expect(patrick).toContain("Languages");
    await context.close();
  });
});

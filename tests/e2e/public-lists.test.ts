/**
 * State in the URL: /insights filter and page, practice page tabs and their
 * insights pages. Everything survives a reload and works as plain links.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { DESKTOP, enhanced, trackedPage } from "./public-helpers";

const titles = (page: Page) => page.locator("main article h2, main article h3").allTextContents();
const filterBar = (page: Page) => page.getByRole("navigation", { name: "Filter articles" });
const pager = (page: Page) => page.getByRole("navigation", { name: "Pagination" });

describe("/insights", () => {
  it("pages six at a time through the URL, and a reload keeps the page", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insights");
    await enhanced(page);
    const first = await titles(page);
    expect(first).toHaveLength(6);
    expect(first[0]).toBe("Firm Expands Cyber Incident Response Team");
    expect(await pager(page).getByRole("link", { name: "Page 1" }).getAttribute("aria-current")).toBe("page");
    await pager(page).getByRole("link", { name: "Page 2" }).click();
    await page.waitForURL(/\/insights\?page=2$/);
    await expect.poll(() => titles(page)).not.toEqual(first);
    const second = await titles(page);
    expect(second).toHaveLength(6);
    expect(second.some((t) => first.includes(t))).toBe(false);
    await page.reload();
    expect(await titles(page)).toEqual(second);
    expect(await pager(page).getByRole("link", { name: "Page 2" }).getAttribute("aria-current")).toBe("page");
    await pager(page).getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/insights\?page=3$/);
    await expect.poll(() => titles(page).then((t) => t.length)).toBe(4); // 16 demo articles
    expect((await titles(page)).at(-1)).toBe("Fraud Indicators in Staged Collision Claims");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("filters through real links with aria-current; changing the filter resets to page 1", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insights?page=2");
    await enhanced(page);
    expect(await filterBar(page).getByRole("link", { name: "all articles" }).getAttribute("aria-current")).toBe("page");
    expect(await filterBar(page).getByRole("link").allTextContents()).toEqual([
      "all articles",
      "insurance",
      "construction",
      "cyber",
      "news",
      "events",
    ]);
    expect(await filterBar(page).getByRole("link", { name: "cyber" }).getAttribute("href")).toBe("/insights?category=cyber");
    await filterBar(page).getByRole("link", { name: "cyber" }).click();
    await page.waitForURL(/\/insights\?category=cyber$/);
    await expect
      .poll(() => titles(page))
      .toEqual([
        "Firm Expands Cyber Incident Response Team",
        "Ransomware Payments: Five Questions to Ask Before You Pay",
        "Business E-mail Compromise: The First 48 Hours",
        "Tabletop Exercises That Actually Prepare Your Team",
      ]);
    expect(await filterBar(page).getByRole("link", { name: "cyber" }).getAttribute("aria-current")).toBe("page");
    expect(await filterBar(page).getByRole("link", { name: "all articles" }).getAttribute("aria-current")).toBeNull();
    // One page only: no page buttons.
    expect(await pager(page).count()).toBe(0);
    await page.reload();
    expect(await filterBar(page).getByRole("link", { name: "cyber" }).getAttribute("aria-current")).toBe("page");
    expect(await titles(page)).toHaveLength(4);
    // News uses the news flag, across categories.
    await filterBar(page).getByRole("link", { name: "news" }).click();
    await page.waitForURL(/category=news$/);
    await expect
      .poll(() => titles(page))
      .toEqual([
        "Firm Expands Cyber Incident Response Team",
        "Court of Appeal Clarifies Occupiers' Duty in Winter Slip Claims",
        "Annual Insurance Defence Seminar: Registration Open",
        "Partner Sofia Marchetti Named to Construction Law Section Executive",
        "Firm Welcomes Two New Associates",
      ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("filters and pages without JavaScript (plain links)", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/insights");
    await pager(page).getByRole("link", { name: "Page 2" }).click();
    await page.waitForURL(/\/insights\?page=2$/);
    expect(await titles(page)).toHaveLength(6);
    expect(await pager(page).getByRole("link", { name: "Page 2" }).getAttribute("aria-current")).toBe("page");
    await pager(page).getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/insights\?page=3$/);
    expect((await titles(page)).at(-1)).toBe("Fraud Indicators in Staged Collision Claims");
    await filterBar(page).getByRole("link", { name: "cyber" }).click();
    await page.waitForURL(/\/insights\?category=cyber$/);
    expect(await titles(page)).toHaveLength(4);
    expect(await filterBar(page).getByRole("link", { name: "cyber" }).getAttribute("aria-current")).toBe("page");
    await context.close();
  });

  it("falls back safely on invalid parameters (never a 500)", async ({ base }) => {
    for (const query of [
      "?category=nonsense",
      "?page=-1",
      "?page=abc",
      "?page=99999",
      "?category=CYBER&page=2",
      "?category=%00&page=1e9",
      "?page=" + "9".repeat(40),
    ]) {
      const res = await fetch(`${base}/insights${query}`);
      expect(res.status, query).toBe(200);
      const html = await res.text();
      expect(html, query).toContain("News &amp; Insights");
    }
    const beyond = await (await fetch(`${base}/insights?page=99`)).text();
    expect(beyond).toContain("Fraud Indicators in Staged Collision Claims"); // the last page
    const upper = await (await fetch(`${base}/insights?category=CYBER`)).text();
    expect(upper).toContain("Tabletop Exercises That Actually Prepare Your Team");
    expect(upper).not.toContain("Fraud Indicators in Staged Collision Claims");
  });
});

describe("practice pages", () => {
  const tabs = (page: Page) => page.getByRole("navigation", { name: /sections$/ });

  it("opens on Overview; the tab lives in the URL and survives a reload", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/insurance");
    await enhanced(page);
    expect(await tabs(page).getByRole("link").allTextContents()).toEqual(["Overview", "Team", "Insights"]);
    expect(await tabs(page).getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");
    expect(await page.getByRole("heading", { name: "How can we help?" }).count()).toBe(1);
    await tabs(page).getByRole("link", { name: "Team" }).click();
    await page.waitForURL(/\/insurance\?tab=team$/);
    await expect.poll(() => tabs(page).getByRole("link", { name: "Team" }).getAttribute("aria-current")).toBe("page");
    // Members whose AOP contains insurance, in the spec's order; more than three: a grid.
    const names = await page.locator("main ul[data-layout] h3").allTextContents();
    expect(names).toEqual(["Eleanor Whitcombe", "Marcus Adeyemi", "Catherine Doyle", "Rajiv Menon", "Amelia Brandt", "Nadia Kowalski"]);
    expect(await page.locator("main ul[data-layout]").getAttribute("data-layout")).toBe("grid");
    await page.reload();
    expect(await tabs(page).getByRole("link", { name: "Team" }).getAttribute("aria-current")).toBe("page");
    expect(await page.locator("main ul[data-layout] h3").allTextContents()).toEqual(names);
    await tabs(page).getByRole("link", { name: "Insights" }).click();
    await page.waitForURL(/\/insurance\?tab=insights$/);
    await expect
      .poll(() => titles(page))
      .toEqual([
        "Court of Appeal Clarifies Occupiers' Duty in Winter Slip Claims",
        "Subrogation After a Condominium Water Loss",
        "Accident Benefits: Catastrophic Impairment Update",
        "Firm Welcomes Two New Associates",
        "Fraud Indicators in Staged Collision Claims",
      ]);
    await tabs(page).getByRole("link", { name: "Overview" }).click();
    await page.waitForURL(/\/insurance$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("centres three or fewer members, and shows the cyber subtitle", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP });
    await page.goto(base + "/cyber?tab=team");
    expect(await page.locator("main").textContent()).toContain("Safeguarding your interests with swift action and solid defence.");
    expect(await page.locator("main ul[data-layout] h3").allTextContents()).toEqual(["Rajiv Menon", "Benjamin Okafor", "Hiroshi Tanaka"]);
    expect(await page.locator("main ul[data-layout]").getAttribute("data-layout")).toBe("centred");
    await context.close();
  });

  it("tabs work without JavaScript (real links)", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(base + "/construction");
    await page.getByRole("link", { name: "Team", exact: true }).click();
    await page.waitForURL(/\/construction\?tab=team$/);
    expect(await page.locator("main ul[data-layout] h3").allTextContents()).toEqual([
      "Eleanor Whitcombe",
      "Sofia Marchetti",
      "Benjamin Okafor",
      "Nadia Kowalski",
    ]);
    await page.getByRole("link", { name: "Insights", exact: true }).click();
    await page.waitForURL(/\/construction\?tab=insights$/);
    expect(await titles(page)).toHaveLength(4);
    await context.close();
  });

  it("an unknown tab falls back to Overview", async ({ base }) => {
    const res = await fetch(`${base}/cyber?tab=bogus&page=zz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("How can we help?");
  });
});

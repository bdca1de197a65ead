/**
 * The dashboard fits a phone (390 px) and a laptop (1280 px): every screen
 * of app/routes.ts under the dashboard frame, with content in it (visits in
 * Statistics, an enquiry, a subscriber, an e-mail in the Outbox, a redirect,
 * an address not found), opened at both widths.
 *
 * - Nothing scrolls sideways: the document is no wider than the window.
 * - No table cell is cut off. A table wider than the phone scrolls inside a
 *   region of its own that says what it holds and takes the keyboard's focus
 *   (role="region", a name, tabindex="0"); at 1280 px no table scrolls at all.
 * - No text spills out of its box over its neighbours.
 * - The top navigation lists every screen of the signed-in owner, in one row
 *   at 1280 px, beside the address and LOGOUT; on a phone it is one "Menu"
 *   that the keyboard opens.
 *
 * A screenshot of each screen at each width is kept in DASHBOARD_FIT_SHOTS (a
 * temporary folder unless set), to look at.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "./fixture";
import { adminRoutes } from "../support/admin-routes";
import { DASHBOARD_NAV, publicForm, sendVisits, statisticsShown } from "./support";

const WIDTHS = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 900 } } as const;
const SHOTS = process.env.DASHBOARD_FIT_SHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-fit-"));
const stamp = Date.now();

/** The owner's navigation: every screen whose route declares an entry (the test account is an owner). */
const OWNER_NAV = DASHBOARD_NAV.owner;

/**
 * How each parameterised screen is reached: the screen it is linked from, and the links followed from there.
 */
const PARAMETERISED: Record<string, { from: string; links: string[] }> = {
  // The demo's past event and its registrants (issue 45): its edit screen's Registrations link.
  "dashboard/events/:id/registrations": {
    from: "/dashboard/events?q=Ethics",
    links: ['a[href$="/edit"]', 'a[href$="/registrations"]'],
  },
  "dashboard/lawyer/:slug": { from: "/dashboard/lawyers", links: ['a[href^="/dashboard/lawyer/"]'] },
  "dashboard/articles/:id/edit": { from: "/dashboard/articles", links: ['a[href$="/edit"]'] },
  "dashboard/articles/:id/mailing": { from: "/dashboard/articles", links: ['a[href$="/edit"]', 'a[href$="/mailing"]'] },
  "dashboard/events/:id/edit": { from: "/dashboard/events", links: ['a[href$="/edit"]'] },
  "dashboard/history/:kind/:id": { from: "/dashboard/articles", links: ['a[href$="/edit"]', 'a[href^="/dashboard/history/"]'] },
  "dashboard/enquiries/:id": { from: "/dashboard/enquiries", links: ['a[href^="/dashboard/enquiries/"]:not([href$="/export"])'] },
  "dashboard/subscribers/:id": { from: "/dashboard/subscribers", links: ['a[href^="/dashboard/subscribers/"]:not([download])'] },
  "dashboard/outbox/:id": { from: "/dashboard/outbox", links: ['a[href^="/dashboard/outbox/"]'] },
};

/** The page routes under the dashboard frame (app/routes.ts), as patterns without the leading slash. */
const dashboardPages = () =>
  adminRoutes()
    .filter((r) => r.file.endsWith(".tsx") && r.file !== "routes/admin/layout.tsx")
    .map((r) => r.pattern.slice(1));

it.beforeAll(async ({ base }) => {
  // Content for the screens that show it: visits, an old address asked for (the 404 log), an enquiry, a sign-up
  // (sent once their forms' tokens allow).
  await sendVisits(base);
  await fetch(`${base}/an-old-page-${stamp}/`, { headers: { referer: "https://partner.example/a/long/path/of/a/referring/page" } });
  const enquiry = await publicForm("/contact", base);
  for (const [name, value] of Object.entries({
    name: `Fit Sender ${stamp}`,
    email: `fit${stamp}@example.com`,
    phone: "416 555 0101",
    practice_area: "cyber",
    message: "A question about a construction lien and its deadline, long enough to wrap on a phone screen.",
    consent: "yes",
  }))
    enquiry.fields.set(name, value);
  const signup = await publicForm("/subscribe", base);
  signup.fields.set("email", `fit-reader${stamp}@example.com`);
  signup.fields.append("topics", "news");
  signup.fields.set("consent", "yes");
  const [sent, subscribed] = await Promise.all([enquiry.send(), signup.send()]);
  expect([sent.status, subscribed.status]).toEqual([200, 200]);
});

/**
 * What the page shows that does not fit: sideways scroll, cut-off cells, tables that scroll without a
 * labelled region, text that spills out of its box.
 */
function misfits(page: Page, laptop: boolean) {
  return page.evaluate((laptop) => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) found.push(`the page is ${root.scrollWidth} px wide in a ${window.innerWidth} px window`);
    const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    for (const cell of document.querySelectorAll<HTMLElement>("main th, main td")) {
      const box = cell.getBoundingClientRect();
      if (!box.width) continue;
      const style = getComputedStyle(cell);
      if (style.overflowX !== "visible" && cell.scrollWidth > cell.clientWidth + 1) found.push(`${name(cell)}: its text is cut off`);
      for (let up = cell.parentElement; up && up !== document.body; up = up.parentElement) {
        const overflow = getComputedStyle(up).overflowX;
        if (overflow === "visible") continue;
        const frame = up.getBoundingClientRect();
        const outside = box.right > frame.right + 1 || box.left < frame.left - 1;
        const scrolls = overflow === "auto" || overflow === "scroll";
        const region =
          up.getAttribute("role") === "region" &&
          !!(up.getAttribute("aria-label") || up.getAttribute("aria-labelledby")) &&
          up.tabIndex === 0;
        if (outside && !(scrolls && region)) found.push(`${name(cell)}: cut off by its box (overflow ${overflow})`);
        if (scrolls && up.scrollWidth > up.clientWidth + 1) {
          if (!region) found.push(`${name(cell)}: scrolls in a box that is not a labelled region`);
          else if (laptop) found.push(`${name(cell)}: its table scrolls sideways at 1280 px (a column is hidden)`);
        }
        break;
      }
    }
    // Text wider than its box, drawn over what is beside it (a name under its buttons).
    const walker = document.createTreeWalker(document.querySelector("main")!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      let box = node.parentElement;
      const inline = (el: Element) => /^inline($| )/.test(getComputedStyle(el).display);
      while (box && inline(box)) box = box.parentElement;
      if (!box || getComputedStyle(box).overflowX !== "visible") continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const text = range.getBoundingClientRect();
      const frame = box.getBoundingClientRect();
      if (text.width && (text.right > frame.right + 1 || text.left < frame.left - 1))
        found.push(`"${node.textContent.trim().slice(0, 40)}" spills out of its box`);
    }
    return [...new Set(found)];
  }, laptop);
}

/** The header's rows: the navigation's items, the home link, the address and LOGOUT, by their top edge. */
function headerRows(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector("header")!;
    const middle = (el: Element | null) => (el ? Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2) : null);
    return {
      navTops: [...header.querySelectorAll('nav[aria-label="Dashboard"] li')].map((li) => (li as HTMLElement).offsetTop),
      home: middle(header.querySelector('a[aria-label="Dashboard home"]')),
      address: middle([...header.querySelectorAll("span")].find((s) => s.textContent?.includes("@")) ?? null),
      logout: middle(header.querySelector('form[aria-label="Logout"] button')),
      addressLines: (() => {
        const span = [...header.querySelectorAll("span")].find((s) => s.textContent?.includes("@"));
        return span ? Math.round(span.getBoundingClientRect().height / parseFloat(getComputedStyle(span).lineHeight)) : 0;
      })(),
    };
  });
}

describe("the dashboard at 390 px and 1280 px", { timeout: 300_000 }, () => {
  it("every screen: nothing scrolls sideways, no table cell is cut off, wide tables scroll in a labelled region", async ({
    base,
    staffPage,
  }) => {
    const { page } = await staffPage({ viewport: WIDTHS.laptop });
    // An e-mail in the Outbox: an invitation sent from Staff, as a person sends it.
    await page.goto(`${base}/dashboard/staff`);
    await page.locator('main[data-hydrated="true"]').waitFor();
    await page.getByLabel(/^Email/).fill(`fit-invitee${stamp}@example.com`);
    await page.getByRole("button", { name: "INVITE", exact: true }).click();
    await page.getByText(`fit-invitee${stamp}@example.com`).first().waitFor();
    // A redirect, made on Redirects.
    await page.goto(`${base}/dashboard/redirects`);
    await page.locator('main[data-hydrated="true"]').waitFor();
    await page.getByLabel("Old address").fill(`/2019/05/a-long-old-address-of-a-post-${stamp}/?p=1234&utm_source=x`);
    await page.getByLabel("New address").fill("/insights");
    await page.getByRole("button", { name: "Add redirect" }).click();
    await page.getByText(`a-long-old-address-of-a-post-${stamp}`).first().waitFor();

    const pages = dashboardPages();
    expect(pages.filter((p) => p.includes(":")).sort()).toEqual(Object.keys(PARAMETERISED).sort());
    expect(pages).toContain("dashboard/statistics");
    const found: Record<string, string[]> = {};
    // Statistics last: its figures come with the server's rollup (every minute) of the visits sent before the
    // test, which the other screens leave time for, instead of a wait of up to a minute before the first.
    for (const pattern of [...pages.filter((p) => p !== "dashboard/statistics"), "dashboard/statistics"]) {
      if (pattern === "dashboard/statistics") await statisticsShown(page, base);
      let address = "/" + pattern;
      const reach = PARAMETERISED[pattern];
      if (reach) {
        await page.setViewportSize(WIDTHS.laptop);
        address = reach.from;
        for (const link of reach.links) {
          await page.goto(base + address);
          await page.locator('main[data-hydrated="true"]').waitFor();
          address = (await page.locator(`main ${link}`).first().getAttribute("href"))!;
        }
      }
      if (pattern === "dashboard/statistics") address += "?range=7d";
      for (const [label, viewport] of Object.entries(WIDTHS)) {
        await page.setViewportSize(viewport);
        const res = await page.goto(base + address);
        expect(res?.status(), address).toBe(200);
        await page.locator('main[data-hydrated="true"]').waitFor();
        await page.waitForLoadState("networkidle");
        const shot = `${pattern.replace(/[/:]+/g, "_")}-${viewport.width}.png`;
        await page.screenshot({ path: path.join(SHOTS, shot), fullPage: true });
        const misfit = await misfits(page, label === "laptop");
        if (misfit.length) found[`${address} at ${viewport.width} px`] = misfit;
      }
    }
    console.info(`dashboard-fit screenshots: ${SHOTS}`);
    expect(found).toEqual({});
  });

  it("the navigation lists every screen: one row beside the address and LOGOUT at 1280 px, a Menu the keyboard opens at 390 px", async ({
    base,
    staffPage,
  }) => {
    const { page } = await staffPage({ viewport: WIDTHS.laptop });
    await page.goto(`${base}/dashboard/statistics`);
    await page.locator('main[data-hydrated="true"]').waitFor();
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(OWNER_NAV);
    const laptop = await headerRows(page);
    expect(new Set(laptop.navTops).size, "the navigation wraps").toBe(1);
    expect(laptop.address, "the address and the home link share a row").toBe(laptop.home);
    expect(laptop.logout, "LOGOUT and the home link share a row").toBe(laptop.home);
    expect(laptop.addressLines).toBe(1);
    expect(await nav.getByText("Menu").isVisible()).toBe(false);
    // The screen open is marked in the navigation.
    expect(await nav.getByRole("link", { name: "Statistics" }).getAttribute("aria-current")).toBe("page");

    await page.setViewportSize(WIDTHS.phone);
    expect(await nav.getByRole("link").count(), "the screens are folded away on a phone").toBe(0);
    const phone = await headerRows(page);
    expect(phone.logout, "LOGOUT and the home link share a row").toBe(phone.home);
    // Opened by keyboard: Tab to "Menu", Enter.
    const menu = nav.locator("summary");
    await menu.focus();
    await page.keyboard.press("Enter");
    expect(await nav.getByRole("link").allTextContents()).toEqual(OWNER_NAV);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, "menu-open-390.png"), fullPage: true });
    // Choosing a screen goes there and folds the menu again.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Team");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${base}/dashboard/lawyers`);
    await page.getByRole("heading", { name: "Manage Team" }).waitFor();
    expect(await nav.getByRole("link").count()).toBe(0);
    // Enter again opens it, Enter closes it.
    await menu.focus();
    await page.keyboard.press("Enter");
    expect(await nav.getByRole("link").count()).toBe(OWNER_NAV.length);
    await menu.focus();
    await page.keyboard.press("Enter");
    expect(await nav.getByRole("link").count()).toBe(0);
  });
});

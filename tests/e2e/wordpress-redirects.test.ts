/**
 * Moving in from WordPress (issue 46), in Chromium on a server of its own,
 * as a person does it: Move from WordPress (upload the export of an old
 * site served on 127.0.0.1, slow to answer; see the dry run's progress or
 * report, read the report, map the unknown category, press Import, see its
 * progress as the job queue's `wordpress-import` job runs it, then its
 * report); then every old address
 * answers exactly one 301 to a page that answers 200, every picture is
 * served by the site and no article points at the old host. The Redirects
 * screen (add, a loop refused, a catastrophic regex refused, a chain made
 * one hop) and the 404 log (a miss listed, one click makes its redirect,
 * probes grouped). Each screen through axe, HTML_CodeSniffer and IBM Equal
 * Access, at 390 px and 1280 px, with nothing scrolling sideways.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { parseCsv } from "~/lib/csv";
import { checkScreen } from "./screen-check";
import { describe, expect, it, ownServer } from "./fixture";
import { staffCookie } from "./support";
import { startOldSite, wxrFixture, type OldSite } from "../support/wordpress-fixture";

let oldSite: OldSite;
let exportFile: string;
const shots = path.join(os.tmpdir(), "wordpress-e2e-shots");

beforeAll(async () => {
  // Each file of the old site answers 1.5 s late: the import takes several seconds, and its progress shows meanwhile.
  oldSite = await startOldSite({ delayMs: 1500 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wxr-e2e-"));
  exportFile = path.join(dir, "old-firm.WordPress.2026-12-05.xml");
  fs.writeFileSync(exportFile, wxrFixture(oldSite.origin));
  fs.mkdirSync(shots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await oldSite?.close();
});

/** The file's own server (its base): the imports and redirects here are its own. */
const server = ownServer();

/** Waits for the dashboard's status region to say `text` (a part of it). */
const status = (page: Page, text: string) => page.getByTestId("status").getByText(text).waitFor({ timeout: 15_000 });

describe("moving in from WordPress", () => {
  it("imports from the dashboard with a dry run first, and every old address answers one 301 to a page that answers 200", async ({
    staffPage,
  }) => {
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/dashboard/import/wordpress`);
    await checkScreen(page, "import-start", shots);
    await page.getByLabel("WordPress export (.xml)").setInputFiles(exportFile);
    await page.getByRole("button", { name: "Upload and check" }).click();
    // The dry run's page: its progress while the job runs it (it may already be done), then its report.
    await page.waitForURL(/\/dashboard\/import\/wordpress\?task=\d+$/, { timeout: 60_000 });
    await page.getByRole("heading", { name: /2\. Check the dry run, then import/ }).waitFor({ timeout: 60_000 });
    await page.getByText("Miscellany (1 post) — unknown: choose").waitFor({ timeout: 15_000 });
    await checkScreen(page, "import-report", shots);
    await page.getByLabel("Miscellany (1 post) — unknown: choose").selectOption("construction");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    // The progress, read again from the database while the job runs (the old site's files come slowly).
    await page.getByRole("progressbar", { name: "Import progress" }).waitFor({ timeout: 30_000 });
    await page
      .getByRole("status")
      .filter({ hasText: /^Import of old-firm\.WordPress\.2026-12-05\.xml: / })
      .waitFor();
    await checkScreen(page, "import-progress", shots);
    await page.getByRole("heading", { name: /^Imported:/ }).waitFor({ timeout: 120_000 });
    expect(await page.getByRole("progressbar").count()).toBe(0);
    await checkScreen(page, "import-done", shots);

    // Every old address: one 301, to a page that answers 200.
    const cookie = await staffCookie(server.url);
    const csv = await (await fetch(`${server.url}/dashboard/redirects/export`, { headers: { cookie } })).text();
    // Columns: source, target, status, match, enabled, origin, …
    const rules = parseCsv(csv)
      .slice(1)
      .filter((cells) => cells[5] === "wordpress")
      .map((cells) => cells[0]);
    expect(rules.length).toBeGreaterThan(20);
    for (const source of rules) {
      const first = await fetch(server.url + source, { redirect: "manual" });
      expect(first.status, source).toBe(301);
      const location = first.headers.get("location")!;
      const second = await fetch(new URL(location, server.url), { redirect: "manual" });
      expect(second.status, `${source} → ${location}`).toBe(200);
    }
    // The trailing-slash form WordPress used, and ?p= with a campaign parameter.
    expect((await fetch(`${server.url}/2021/03/coverage-after-the-flood/`, { redirect: "manual" })).status).toBe(301);
    expect((await fetch(`${server.url}/?p=10&utm_source=newsletter`, { redirect: "manual" })).headers.get("location")).toMatch(
      /^\/post\/Coverage-after-the-flood$/,
    );
    // The articles: served, no old host, every picture served by the site.
    for (const slug of ["Coverage-after-the-flood", "Ransomware-the-first-48-hours"]) {
      const html = await (await fetch(`${server.url}/post/${slug}`)).text();
      expect(html).not.toContain(oldSite.origin);
      const pictures = [...html.matchAll(/(?:src|srcset)="(\/images\/[^" ]+)/g)].map((m) => m[1]);
      expect(pictures.length).toBeGreaterThan(0);
      for (const src of pictures) expect((await fetch(server.url + src)).status, src).toBe(200);
    }
    const pdf = await fetch(`${server.url}/wp-content/uploads/2021/03/coverage-brief.pdf`);
    expect([pdf.status, pdf.headers.get("content-type")]).toEqual([200, "application/pdf"]);
  });

  it("Redirects: a rule added by pressing the button, a loop and a catastrophic regex refused in words, a chain made one hop", async ({
    staffPage,
  }) => {
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/dashboard/redirects`);
    await checkScreen(page, "redirects", shots);
    const add = async (source: string, target: string, match = "exact") => {
      await page.getByLabel("Match").selectOption(match);
      await page.getByLabel("Old address").fill(source);
      await page.getByLabel("New address").fill(target);
      await page.getByRole("button", { name: "Add redirect" }).click();
      await page.waitForLoadState("networkidle");
    };
    await add("/old-team-page/", "/team");
    await status(page, "Redirect added: /old-team-page → /team.");
    await add("/older-team-page", "/old-team-page");
    await status(page, "/old-team-page already redirects to /team, so this rule goes straight to /team (one hop).");
    await add("/team", "/older-team-page");
    await page.getByText(/This would be a loop/).waitFor({ timeout: 15_000 });
    await checkScreen(page, "redirects-errors", shots);
    await add("^/(a+)+$", "/insights", "regex");
    await page.getByText(/repeats a group that itself repeats/).waitFor({ timeout: 15_000 });
    const res = await fetch(`${server.url}/older-team-page`, { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([301, "/team"]);
    // Select and delete, after the confirmation.
    await page.goto(`${server.url}/dashboard/redirects?q=older-team`);
    await page.getByLabel("/older-team-page").check();
    await page.getByRole("button", { name: "Delete selected" }).click();
    await page.getByText("Are you sure you want to delete this? (1 redirect)").waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await status(page, "1 redirect deleted.");
    expect((await fetch(`${server.url}/older-team-page`, { redirect: "manual" })).status).toBe(404);
  });

  it("the 404 log lists a missing address with its referrer, groups probes, and one click makes its redirect", async ({ staffPage }) => {
    await fetch(`${server.url}/2019/05/an-old-seminar/`, { headers: { referer: "https://partner.example/links?id=7" } });
    await fetch(`${server.url}/2019/05/an-old-seminar/`);
    await fetch(`${server.url}/wp-login.php`);
    await fetch(`${server.url}/.env`);
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } });
    // The log is written every 10 s: the misses may land in two writes, so
    // reload until all are counted (the screen does not refresh by itself).
    const twice = /2 times on 1 day .* most from partner\.example/;
    const deadline = Date.now() + 45_000;
    do {
      await page.goto(`${server.url}/dashboard/redirects/not-found`);
      if ((await page.getByText(twice).count()) && (await page.getByText("(crawler probes)").count())) break;
      await page.waitForTimeout(1000);
    } while (Date.now() < deadline);
    await page.getByText("/2019/05/an-old-seminar", { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByText(twice).waitFor({ timeout: 15_000 });
    await page.getByText("(crawler probes)").waitFor({ timeout: 15_000 });
    expect(await page.getByText("/wp-login.php").count()).toBe(0);
    await checkScreen(page, "not-found", shots);
    await page.getByRole("form", { name: "Redirect /2019/05/an-old-seminar" }).getByRole("button", { name: "Redirect" }).click();
    await status(page, "Redirect made: /2019/05/an-old-seminar → /search?q=an%20old%20seminar.");
    const res = await fetch(`${server.url}/2019/05/an-old-seminar/`, { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([301, "/search?q=an%20old%20seminar"]);
    expect(await page.getByText("/2019/05/an-old-seminar", { exact: true }).count()).toBe(0);
  });
});

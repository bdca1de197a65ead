/**
 * The CASL import (issue 42 item 5) in Chromium, pressed as an admin would:
 * choose a CSV file and a topic, press Upload and import; the screen shows
 * the job's progress and then the result with the refused rows and their
 * reasons; an imported subscriber's screen shows when implied consent ends;
 * then Ask for consent: the warning, how many will be asked, the box ticked
 * once, the message. The screen passes the three accessibility checkers at
 * 1280 and 390 px without sideways scrolling (screenshots in /tmp).
 */
import fs from "node:fs";
import type { Page } from "playwright-core";
import { runA11yCheckers } from "./a11y-checkers";
import { describe, expect, it } from "./fixture";
import { dashboardReady } from "./support";

const stamp = Date.now();
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function fits(p: Page, width: number) {
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe("Import contacts (CASL) and Ask for consent", () => {
  it("uploads a CSV by pressing the buttons, shows progress and the refused rows, then asks for consent once confirmed", async ({
    staffPage,
    base,
  }) => {
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } }, "admin");
    const file = [
      "email,consent,consent date,source,implied basis",
      `express.${stamp}@client.example,express,${ago(300)},"Signed engagement letter, clause 12",`,
      `implied.${stamp}@client.example,implied,${ago(60)},Retainer for file 2026-114,business relationship`,
      `enquiry.${stamp}@client.example,implied,${ago(20)},Enquiry form on the site,enquiry`,
      `nodate.${stamp}@client.example,express,,Card at a seminar,`,
      `late.${stamp}@client.example,implied,${ago(400)},Telephone enquiry,enquiry`,
    ].join("\n");
    await page.goto(`${base}/dashboard/subscribers`);
    await dashboardReady(page);
    await page.getByRole("table", { name: "The CSV file’s columns" }).waitFor();
    // A file over the limit is refused in words before it is sent (nginx would answer its own 413 page past 13 MB).
    const topic = page.getByRole("group", { name: "Topics for the imported subscribers" }).getByRole("checkbox").first();
    await page
      .getByLabel("CSV file", { exact: true })
      .setInputFiles({ name: "huge.csv", mimeType: "text/csv", buffer: Buffer.alloc(12 * 1024 * 1024 + 10, 97) });
    await topic.check();
    await page.getByRole("button", { name: "Upload and import" }).click();
    await page.getByRole("alert").filter({ hasText: "The file is too large: at most 12 MB." }).waitFor();
    await topic.uncheck();
    await page
      .getByLabel("CSV file", { exact: true })
      .setInputFiles({ name: `contacts-${stamp}.csv`, mimeType: "text/csv", buffer: Buffer.from(file) });
    await page.getByRole("group", { name: "Topics for the imported subscribers" }).getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Upload and import" }).click();
    await page.getByText("5 rows are being imported").waitFor({ timeout: 15_000 });
    const progress = page.locator("[data-import-status]");
    // Read by the screen as the job goes (no reload): waiting or importing, then finished.
    await expect.poll(() => progress.getAttribute("data-import-status"), { timeout: 30_000 }).toBe("done");
    expect(await progress.textContent()).toContain("Import finished: 5 of 5 rows read: 3 accepted, 2 refused. Nothing was sent to anyone.");
    const refused = page.getByRole("table", { name: /Refused rows/ });
    expect(await refused.getByRole("row").count()).toBe(3);
    expect(await refused.getByRole("row", { name: new RegExp(`^5 nodate\\.${stamp}`) }).textContent()).toContain("No consent date.");
    expect(await refused.getByRole("row", { name: new RegExp(`^6 late\\.${stamp}`) }).textContent()).toMatch(
      /Implied consent \(enquiry\) ended on \d{4}-\d{2}-\d{2}\./,
    );
    // The refused rows as a file, to mend and import again: the link pressed, the file saved.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download the refused rows (CSV)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^import-\d+-refused-rows\.csv$/);
    const rows = fs
      .readFileSync(await download.path(), "utf8")
      .trimEnd()
      .split("\r\n");
    expect(rows).toHaveLength(3);
    expect(rows[1]).toBe(`"5","nodate.${stamp}@client.example","No consent date."`);

    // The rest of the screen is read again when the import finishes: the new addresses may be asked for consent.
    await page.locator("[data-consent-requests]").waitFor({ timeout: 15_000 });
    expect(await runA11yCheckers(page)).toEqual([]);
    await fits(page, 1280);
    await page.screenshot({ path: "/tmp/subscribers-import-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await fits(page, 390);
    expect(await runA11yCheckers(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/subscribers-import-390.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Without JavaScript a refresh shows the same result.
    const { page: plain } = await staffPage({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false }, "admin");
    await plain.goto(`${base}/dashboard/subscribers`);
    expect(await plain.locator("[data-import-status]").textContent()).toContain(
      "Import finished: 5 of 5 rows read: 3 accepted, 2 refused.",
    );

    // The subscriber's screen: implied consent and its end.
    await page.getByRole("searchbox", { name: "Search addresses" }).fill(`implied.${stamp}`);
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByRole("link", { name: `implied.${stamp}@client.example` }).click();
    await page.waitForURL(/\/dashboard\/subscribers\/\d+$/);
    await dashboardReady(page);
    expect(await page.locator("[data-consent]").textContent()).toMatch(/^Implied, until \w+day, \w+ \d+, \d{4}: not mailed after that/);
    await page.goto(`${base}/dashboard/subscribers`);
    await dashboardReady(page);

    // Ask for consent: the warning, the number, one confirmation.
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Ask imported contacts for consent" }) });
    expect(await section.textContent()).toContain(
      "A request for consent sent by e-mail is itself a commercial electronic message under CASL.",
    );
    const count = Number(await section.locator("[data-consent-requests]").getAttribute("data-consent-requests"));
    expect(count).toBeGreaterThanOrEqual(2);
    await section.getByRole("checkbox", { name: /I understand that each request is a commercial message/ }).check();
    await section.getByRole("button", { name: `Send ${count.toLocaleString("en-CA")} requests for consent` }).click();
    await page.getByText(new RegExp(`^${count} requests for consent (are going out now|are queued)`)).waitFor({ timeout: 15_000 });
    await page
      .getByText("Nobody else can be asked: every imported address on implied consent has been asked, or its consent has ended.")
      .waitFor();
    expect(await section.textContent()).toMatch(/Going out now: \d+\.|Sent today: [1-9]/);
    expect(await section.textContent()).not.toContain("Waiting for the next days");
    await page.screenshot({ path: "/tmp/subscribers-consent-1280.png", fullPage: true });
    // Recorded in Activity.
    await page.goto(`${base}/dashboard/activity`);
    await expect
      .poll(
        () =>
          page
            .getByTestId("activity-entry")
            .filter({ hasText: `Requests for consent to ${count} imported addresses` })
            .count(),
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
  }, 180_000);
});

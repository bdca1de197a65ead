/** The contact card: vCard 4.0 served by the server, downloaded from the lawyer page. */
import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sharedServerUrl } from "./support";
import { hydrated, trackedPage } from "./public-helpers";

let browser: Browser;
let base: string;
beforeAll(async () => {
  browser = await launchBrowser();
  base = sharedServerUrl();
});
afterAll(async () => {
  await browser?.close();
});

describe("vCard", () => {
  it("is served as text/vcard, UTF-8, as an attachment named after the lawyer", async () => {
    const res = await fetch(`${base}/lawyer/Eleanor-Whitcombe/vcard`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/vcard; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Eleanor-Whitcombe.vcf"; filename*=UTF-8''Eleanor-Whitcombe.vcf`,
    );
    const text = await res.text();
    expect(text.startsWith("BEGIN:VCARD\r\nVERSION:4.0\r\n")).toBe(true);
    expect(text.endsWith("END:VCARD\r\n")).toBe(true);
    expect(text.split("\r\n").every((line) => !line.includes("\n"))).toBe(true);
    const lines = text.replace(/\r\n /g, "").split("\r\n");
    expect(lines).toContain("FN:Eleanor Whitcombe");
    expect(lines).toContain("N:Whitcombe;Eleanor;;;");
    expect(lines).toContain("TITLE:Managing Partner");
    expect(lines).toContain("ORG:Harrow Kline LLP");
    expect(lines).toContain("EMAIL;TYPE=work:ewhitcombe@harrowkline.example");
    expect(lines).toContain('TEL;VALUE=uri;TYPE="work,voice":tel:+14165550142;ext=101');
    const photo = lines.find((l) => l.startsWith("PHOTO:"))!;
    expect(photo).toMatch(new RegExp(`^PHOTO:${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/images/team/[^/]+\\.jpg$`));
    // The photo URL really serves the picture.
    const picture = await fetch(photo.slice("PHOTO:".length));
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toMatch(/^image\//);
  });

  it("escapes the apostrophe-free but comma-bearing address and leaves no photo for a member without one", async () => {
    const text = await (await fetch(`${base}/lawyer/Patrick-Lindqvist/vcard`)).text();
    const lines = text.replace(/\r\n /g, "").split("\r\n");
    expect(lines.some((l) => l.startsWith("PHOTO:"))).toBe(false);
    expect(lines.find((l) => l.startsWith("ADR"))).toContain("100 Wellington Street West\\, Suite 2100");
    expect(lines).toContain("ORG:Harrow Kline LLP");
  });

  it("downloads from both DOWNLOAD VCARD buttons of the lawyer page", async () => {
    const { context, page, errors } = await trackedPage(browser, { acceptDownloads: true });
    await page.goto(`${base}/lawyer/Sofia-Marchetti`);
    await hydrated(page);
    const buttons = page.getByRole("link", { name: "DOWNLOAD VCARD" });
    expect(await buttons.count()).toBe(2);
    for (const i of [0, 1]) {
      const [download] = await Promise.all([page.waitForEvent("download"), buttons.nth(i).click()]);
      expect(download.suggestedFilename()).toBe("Sofia-Marchetti.vcf");
      const file = await download.path();
      const text = fs.readFileSync(file!, "utf8");
      expect(text).toContain("FN:Sofia Marchetti\r\n");
      expect(text).toContain("tel:+14165550142;ext=103");
    }
    expect(page.url()).toBe(`${base}/lawyer/Sofia-Marchetti`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * The contact card: vCard 3.0 served by the server with the portrait
 * embedded, downloaded from the lawyer page, the same card for Apple mobile
 * devices (Safari opens text/vcard into Contacts). The card's fields are read
 * back by an independent parser in tests/integration/vcard.test.ts.
 */
import fs from "node:fs";
import { describe, expect, it } from "./fixture";
import { enhanced, trackedPage } from "./public-helpers";
import { ELEANOR_WHITCOMBE_LINES, expectCardLines, expectVCard3Framing, unfoldedLines } from "../support/vcard";

describe("vCard", () => {
  it("is served as text/vcard, UTF-8, as an attachment named after the lawyer", async ({ base }) => {
    const res = await fetch(`${base}/lawyer/Eleanor-Whitcombe/vcard`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/vcard; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Eleanor-Whitcombe.vcf"; filename*=UTF-8''Eleanor-Whitcombe.vcf`,
    );
    const text = await res.text();
    expectVCard3Framing(text);
    expectCardLines(text, [...ELEANOR_WHITCOMBE_LINES, `URL:${base}/lawyer/Eleanor-Whitcombe`]);
    const lines = unfoldedLines(text);
    // The portrait is in the card itself: a JPEG of at most 30 KB.
    const photo = lines.find((l) => l.startsWith("PHOTO;ENCODING=b;TYPE=JPEG:"))!;
    const bytes = Buffer.from(photo.slice("PHOTO;ENCODING=b;TYPE=JPEG:".length), "base64");
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(bytes.length).toBeLessThanOrEqual(30 * 1024);
  });

  it("gives Apple mobile devices the same card, as text/vcard (Safari opens it into Contacts)", async ({ base }) => {
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    const [apple, other] = await Promise.all(
      [iphone, "Mozilla/5.0 (Windows NT 10.0; Win64; x64)"].map((ua) =>
        fetch(`${base}/lawyer/Eleanor-Whitcombe/vcard`, { headers: { "user-agent": ua } }),
      ),
    );
    expect(apple.status).toBe(200);
    expect(apple.headers.get("content-type")).toBe("text/vcard; charset=utf-8");
    expect(await apple.text()).toBe(await other.text());
  });

  it("escapes the apostrophe-free but comma-bearing address and leaves no photo for a member without one", async ({ base }) => {
    const text = await (await fetch(`${base}/lawyer/Patrick-Lindqvist/vcard`)).text();
    const lines = unfoldedLines(text);
    expect(lines.some((l) => l.startsWith("PHOTO:"))).toBe(false);
    expect(lines.find((l) => l.startsWith("ADR"))).toContain("100 Wellington Street West\\, Suite 2100");
    expect(lines).toContain("ORG:Harrow Kline LLP");
  });

  it("downloads from both DOWNLOAD VCARD buttons of the lawyer page", async ({ browser, base }) => {
    const { context, page, errors } = await trackedPage(browser, { acceptDownloads: true });
    await page.goto(`${base}/lawyer/Sofia-Marchetti`);
    await enhanced(page);
    const buttons = page.getByRole("link", { name: "DOWNLOAD VCARD" });
    expect(await buttons.count()).toBe(2);
    for (const i of [0, 1]) {
      const [download] = await Promise.all([page.waitForEvent("download"), buttons.nth(i).click()]);
      expect(download.suggestedFilename()).toBe("Sofia-Marchetti.vcf");
      const file = await download.path();
      const text = fs.readFileSync(file, "utf8");
      expect(text).toContain("FN:Sofia Marchetti\r\n");
      expect(text).toContain("TEL;TYPE=WORK,VOICE:+1 416-555-0142 ext. 103\r\n");
    }
    expect(page.url()).toBe(`${base}/lawyer/Sofia-Marchetti`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("downloads without JavaScript too", async ({ browser, base }) => {
    const { context, page } = await trackedPage(browser, { acceptDownloads: true, javaScriptEnabled: false });
    await page.goto(`${base}/lawyer/Rajiv-Menon`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "DOWNLOAD VCARD" }).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe("Rajiv-Menon.vcf");
    expect(fs.readFileSync(await download.path(), "utf8")).toContain("FN:Rajiv Menon\r\n");
    expect(page.url()).toBe(`${base}/lawyer/Rajiv-Menon`);
    await context.close();
  });
});

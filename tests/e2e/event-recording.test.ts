/**
 * An event's recording uploaded as a file (issue 45, item 2) in Chromium, as
 * an editor works: Manage Events, the past demo event's edit screen, its link
 * cleared, a file chosen with the file input and SAVE CHANGES pressed. A file
 * that is not a recording is refused in words; a real WebM video (recorded in
 * the browser itself with MediaRecorder) is uploaded, and the event's public
 * page then shows a video player that loads it (the server answers its Range
 * requests), with the note on recorded programs. Accessibility checkers and
 * 1280 px / 390 px without sideways scrolling on both screens.
 */
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import type { Page } from "playwright-core";
import { checkScreen } from "./screen-check";
import { describe, expect, it } from "./fixture";

const EVENT = "Ethics of Defence Reporting to Insurers";

/** A two-second WebM video recorded by the browser (a canvas through MediaRecorder), as a file on disk. */
async function recordVideo(p: Page): Promise<string> {
  const base64 = await p.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 180;
    const g = canvas.getContext("2d")!;
    const stream = canvas.captureStream(15);
    const recorder = new MediaRecorder(stream, { mimeType: "video/webm" });
    const parts: Blob[] = [];
    recorder.ondataavailable = (e) => parts.push(e.data);
    let frame = 0;
    const timer = setInterval(() => {
      g.fillStyle = frame++ % 2 ? "#13233a" : "#b08d57";
      g.fillRect(0, 0, 320, 180);
    }, 60);
    recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    recorder.stop();
    await new Promise((resolve) => (recorder.onstop = resolve));
    clearInterval(timer);
    const bytes = new Uint8Array(await new Blob(parts, { type: "video/webm" }).arrayBuffer());
    let text = "";
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "recording-")), "ethics-recording.webm");
  fs.writeFileSync(file, Buffer.from(base64, "base64"));
  return file;
}

describe("an event's recording as an uploaded file", () => {
  it("an editor chooses a recording file and presses Save; the event's page plays it", async ({ staffPage, base }) => {
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/dashboard`);
    await page.getByRole("navigation").getByRole("link", { name: "Events", exact: true }).first().click();
    await page.getByRole("heading", { name: "Manage Events" }).waitFor();
    await page.getByRole("link", { name: EVENT }).first().click();
    await page.getByRole("heading", { name: "Edit event" }).waitFor();
    const file = page.getByLabel("Recording file");
    await file.waitFor();

    // Something that is not a recording, named like one: refused in words, the link kept.
    await page.getByRole("textbox", { name: "Recording link" }).fill("");
    await file.setInputFiles({
      name: "minutes.mp4",
      mimeType: "video/mp4",
      buffer: Buffer.from("Minutes of the meeting, not a video.\n".repeat(20)),
    });
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await page
      .getByText(
        "“minutes.mp4” is not a recording this site can play. Choose a video or audio file (MP4, M4A, MP3 or WebM), or give a link to the recording instead.",
      )
      .first()
      .waitFor();

    // A real video.
    const video = await recordVideo(page);
    await file.setInputFiles(video);
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await page.getByText("Event updated successfully.").first().waitFor();
    await page.getByText("A video recording is uploaded:").waitFor();
    expect(await page.getByRole("textbox", { name: "Recording link" }).inputValue()).toBe("");
    await checkScreen(page, "event-recording-edit");

    // The public page after the event: the player, the download link and the note.
    const href = (await page.getByRole("link", { name: "View on the site" }).getAttribute("href"))!;
    await page.goto(`${base}${href}`);
    await page.getByRole("heading", { name: "Recording" }).waitFor();
    const player = page.locator("video[controls]");
    await player.waitFor();
    const src = (await player.getAttribute("src"))!;
    expect(src).toMatch(/^\/recordings\/[0-9a-f-]{36}\.webm$/);
    // The browser loads it (metadata at least) from the server.
    await page.waitForFunction(() => (document.querySelector("video") as HTMLVideoElement).readyState >= 1, undefined, { timeout: 20_000 });
    expect(await page.getByRole("link", { name: `Open or download the recording of ${EVENT}` }).getAttribute("href")).toBe(src);
    expect(await page.getByText(/limit of 6 hours a year of CPD from recorded programs/).count()).toBe(1);
    // A seek is a Range request: 206 with the bytes asked for.
    const part = await page.evaluate(async (url) => {
      const res = await fetch(url, { headers: { Range: "bytes=0-99" } });
      return { status: res.status, range: res.headers.get("content-range"), bytes: (await res.arrayBuffer()).byteLength };
    }, src);
    expect(part.status).toBe(206);
    expect(part.range).toMatch(/^bytes 0-99\/\d+$/);
    expect(part.bytes).toBe(100);
    await checkScreen(page, "event-recording-public");
  });
});

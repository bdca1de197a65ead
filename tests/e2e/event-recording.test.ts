/**
 * An event's recording uploaded as a file (issue 45, item 2) in Chromium, as
 * an editor works: Manage Events, the past demo event's edit screen, its link
 * cleared, a file chosen with the file input and SAVE CHANGES pressed. A file
 * that is not a recording is refused in words; a real WebM video (recorded in
 * the browser itself with MediaRecorder) is uploaded, and the event's public
 * page then shows a video player that loads it (the server answers its Range
 * requests), with the note on recorded programs. Then its captions (AODA,
 * WCAG 1.2.2): the edit screen warns that the video is not accessible
 * without them; a file that is not WebVTT is refused in words; a .vtt chosen
 * with the captions field and saved gives the page's video an English
 * captions track (served as text/vtt, loaded by the browser) and a
 * Transcript. Accessibility checkers and 1280 px / 390 px without sideways
 * scrolling on every screen.
 */
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import type { Page } from "playwright-core";
import { checkScreen } from "./screen-check";
import { describe, expect, it } from "./fixture";

const EVENT = "Ethics of Defence Reporting to Insurers";

const CAPTIONS = [
  "WEBVTT",
  "",
  "00:00:00.000 --> 00:00:01.000",
  "<v Moderator>Welcome to the firm's seminar on reporting to insurers.",
  "",
  "00:00:01.000 --> 00:00:02.000",
  "Our first question: what must defence counsel tell the insurer?",
  "",
].join("\n");

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
  it("an editor chooses a recording file and presses Save, then its captions; the event's page plays it with captions and a transcript", async ({
    staffPage,
    base,
  }) => {
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
    // No captions yet: the screen says the video is not accessible without them.
    await page.getByText("Not accessible without captions").waitFor();
    await checkScreen(page, "event-recording-edit");

    // A file that is not WebVTT, named like one: refused in words, nothing kept.
    const captions = page.getByLabel("Captions or transcript file (.vtt)");
    await captions.setInputFiles({
      name: "notes.vtt",
      mimeType: "text/vtt",
      buffer: Buffer.from("Notes from the seminar, not captions.\n"),
    });
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await page
      .getByText(
        "“notes.vtt” is not a captions file this site can use. Choose a WebVTT file (its name ends in .vtt and its first line is WEBVTT); most captioning services and video editors can save one.",
      )
      .first()
      .waitFor();
    expect(await page.getByText("Not accessible without captions").count()).toBe(1);

    // The captions file: chosen, then SAVE CHANGES.
    await page
      .getByLabel("Captions or transcript file (.vtt)")
      .setInputFiles({ name: "ethics-captions.vtt", mimeType: "text/vtt", buffer: Buffer.from(CAPTIONS) });
    await page.getByRole("button", { name: "SAVE CHANGES" }).click();
    await page.getByText("Event updated successfully.").first().waitFor();
    await page.getByText("Captions (WebVTT) are attached:").waitFor();
    expect(await page.getByText("Not accessible without captions").count()).toBe(0);
    await page.getByLabel("Replace the captions with another file").waitFor();
    await checkScreen(page, "event-recording-captions-edit");

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

    // The video's English captions track, served as WebVTT and loaded by the browser.
    const track = page.locator("video > track");
    expect(await track.getAttribute("kind")).toBe("captions");
    expect(await track.getAttribute("srclang")).toBe("en");
    expect(await track.getAttribute("label")).toBe("English");
    expect(await track.getAttribute("default")).not.toBeNull();
    const trackSrc = (await track.getAttribute("src"))!;
    expect(trackSrc).toMatch(/^\/recordings\/[0-9a-f-]{36}\.vtt$/);
    const served = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
    }, trackSrc);
    expect(served).toEqual({ status: 200, type: "text/vtt; charset=utf-8", text: CAPTIONS });
    await page.waitForFunction(() => (document.querySelector("video > track") as HTMLTrackElement).readyState === 2, undefined, {
      timeout: 20_000,
    });
    expect(await page.evaluate(() => document.querySelector("video")!.textTracks[0].cues?.length)).toBe(2);
    // The transcript: the captions' words, shown as text when opened.
    await page.getByText("Transcript", { exact: true }).click();
    await page.getByText("Moderator: Welcome to the firm's seminar on reporting to insurers.").waitFor();
    await page.getByText("Our first question: what must defence counsel tell the insurer?").waitFor();
    await checkScreen(page, "event-recording-public");
  });
});

/**
 * Captions for an uploaded event recording (issue 45, AODA / WCAG 2.0 AA 1.2.1
 * and 1.2.2), through the routes as the server calls them: a WebVTT file
 * chosen on the event form (a multipart field) is checked, stored beside the
 * recording and named by the event's row; the public page gives the video a
 * captions track and shows the words as a transcript; /recordings/….vtt is
 * served (text/vtt; charset=utf-8) only while the recording itself is.
 * Refusals are in words and store nothing; removing or replacing the captions
 * or the recording, or deleting the event for good, removes the file. On the
 * disk and on a bucket (s3rver).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEventById } from "~/.server/db/event-editing";
import { purgeFromTrash } from "~/.server/db/trash";
import { findOrphanPictures } from "~/.server/pictures/picture-sweep";
import { getStorage, setStorage, type Storage } from "~/.server/storage/storage";
import * as create from "~/routes/admin/event-new";
import * as edit from "~/routes/admin/event-edit";
import * as list from "~/routes/admin/events";
import * as eventPage from "~/routes/public/event";
import { callRoute, testContext } from "../support/route-call";
import { signedIn } from "../support/staff-session";
import { setUpTestDatabase, TEST_ACTOR } from "../support/database";
import { startS3, type TestBucket } from "../support/s3";
import { eventForm, mp4, startRecordingSite, uploadRecordingFile } from "../support/recordings";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const context = testContext("192.0.2.22");
const DAY = 86_400_000;
let editor = "";
let site: Awaited<ReturnType<typeof startRecordingSite>>;

const VTT = [
  "WEBVTT",
  "",
  "00:00:01.000 --> 00:00:04.000",
  "<v Ana Rossi>Good morning, everyone.",
  "",
  "00:00:04.500 --> 00:00:08.000",
  "Today: the duty to defend.",
  "",
].join("\n");

beforeAll(async () => {
  editor = await signedIn("captions-editor@example.com", "editor");
  site = await startRecordingSite();
});

afterAll(async () => {
  await site?.close();
});

async function uploadRecording(eventId: number, bytes: Buffer, name: string): Promise<string> {
  const { status, body } = await uploadRecordingFile(eventId, bytes, name, { cookie: editor, context });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.recording!;
}

/** The event form as the browser sends it: multipart, with the captions file field (empty when none is chosen). */
function multipart(path: string, fields: Record<string, string>, captions?: { name: string; bytes: Uint8Array | string }) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append(
    "captions_file",
    captions
      ? new File([captions.bytes as BlobPart], captions.name, { type: "text/vtt" })
      : new File([], "", { type: "application/octet-stream" }),
  );
  return new Request(`${ORIGIN}${path}`, { method: "POST", body, headers: { cookie: editor, origin: ORIGIN } });
}

async function addEvent(title: string, startsIn: number, extra: Record<string, string> = {}) {
  const res = await callRoute(create.action, multipart("/dashboard/events/new", eventForm(title, startsIn, extra)), {}, context);
  expect(res.status, JSON.stringify(res.data)).toBe(302);
  return (await getEventById(Number(/\/dashboard\/events\/(\d+)\/edit/.exec(res.location ?? "")?.[1])))!;
}

async function save(
  id: number,
  title: string,
  startsIn: number,
  fields: Record<string, string>,
  captions?: { name: string; bytes: Uint8Array | string },
) {
  const event = (await getEventById(id))!;
  return callRoute(
    edit.action,
    multipart(`/dashboard/events/${id}/edit`, eventForm(title, startsIn, { version: String(event.version), ...fields }), captions),
    { id: String(id) },
    context,
  );
}

async function publicPage(slug: string) {
  return (
    (await eventPage.loader({ request: new Request(`${ORIGIN}/event/${slug}`), params: { slug } } as never)) as {
      event: { recording: string; recordingFile: string | null; captions: string | null; transcript: string[] | null };
    }
  ).event;
}

const fetchFile = (key: string) => fetch(`${site.url}/${key}`);

function captionsTests(label: string) {
  it(`${label}: a .vtt chosen on the form is stored with the video, served as text/vtt after the event, and shown as a track and a transcript`, async () => {
    const title = `Captioned review ${label}`;
    const event = await addEvent(title, -3 * DAY);
    const recording = await uploadRecording(event.id, mp4(4000), "review.mp4");
    expect((await save(event.id, title, -3 * DAY, { recording_file: recording })).status).toBe(302);

    // Without captions the edit screen's values say so (the form shows the AODA warning) and the page has no track.
    expect((await publicPage(event.slug)).captions).toBeNull();

    const saved = await save(event.id, title, -3 * DAY, { recording_file: recording }, { name: "review.vtt", bytes: `\uFEFF${VTT}` });
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);
    const key = (await getEventById(event.id))!.recording_captions;
    expect(key).toMatch(/^recordings\/[0-9a-f-]{36}\.vtt$/);
    // Stored without the byte-order mark, as UTF-8.
    expect((await getStorage().get(key))!.toString("utf8")).toBe(VTT);

    const screen = await callRoute(
      edit.loader,
      new Request(`${ORIGIN}/dashboard/events/${event.id}/edit`, { headers: { cookie: editor } }),
      {
        id: String(event.id),
      },
    );
    expect((screen.data.values as { recording_captions: string }).recording_captions).toBe(key);

    expect(await publicPage(event.slug)).toMatchObject({
      recording: `/${recording}`,
      recordingFile: "video",
      captions: `/${key}`,
      transcript: ["Ana Rossi: Good morning, everyone.", "Today: the duty to defend."],
    });

    const res = await fetchFile(key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(await res.text()).toBe(VTT);

    // A save that changes nothing about them keeps them.
    expect((await save(event.id, `${title} (renamed)`, -3 * DAY, { recording_file: recording })).status).toBe(302);
    expect((await getEventById(event.id))!.recording_captions).toBe(key);
    // The sweep leaves saved captions alone.
    expect(await findOrphanPictures()).not.toContain(key);
  });

  it(`${label}: captions are not served before the event is over, for a draft, or without their recording`, async () => {
    const upcoming = await addEvent(`Upcoming captioned ${label}`, 5 * DAY);
    const a = await uploadRecording(upcoming.id, mp4(3000), "talk.mp4");
    expect(
      (await save(upcoming.id, `Upcoming captioned ${label}`, 5 * DAY, { recording_file: a }, { name: "talk.vtt", bytes: VTT })).status,
    ).toBe(302);
    const key = (await getEventById(upcoming.id))!.recording_captions;
    expect(key).toMatch(/\.vtt$/);
    const before = await fetchFile(key);
    expect(before.status).toBe(404);
    expect(await before.text()).toBe("Not found");
    expect((await publicPage(upcoming.slug)).captions).toBeNull();

    const draft = await addEvent(`Draft captioned ${label}`, -2 * DAY, { status: "draft" });
    const b = await uploadRecording(draft.id, mp4(3000), "talk.mp4");
    const saved = await save(
      draft.id,
      `Draft captioned ${label}`,
      -2 * DAY,
      { recording_file: b, status: "draft" },
      { name: "talk.vtt", bytes: VTT },
    );
    expect(saved.status).toBe(302);
    const draftKey = (await getEventById(draft.id))!.recording_captions;
    expect((await fetchFile(draftKey)).status).toBe(404);
    expect((await fetchFile(b)).status).toBe(404);
    // Published: the recording and its captions are served together.
    expect((await save(draft.id, `Draft captioned ${label}`, -2 * DAY, { recording_file: b })).status).toBe(302);
    expect((await fetchFile(b)).status).toBe(200);
    expect((await fetchFile(draftKey)).status).toBe(200);
    // A key no event names.
    expect((await fetchFile("recordings/00000000-0000-0000-0000-000000000000.vtt")).status).toBe(404);
  });
}

describe("captions of an uploaded recording (disk)", () => {
  captionsTests("disk");

  it("refuses a file that is not WebVTT, not UTF-8, too large, empty, or without an uploaded recording, in words, storing nothing", async () => {
    const title = "Refused captions seminar";
    const event = await addEvent(title, -DAY);
    const recording = await uploadRecording(event.id, mp4(3000), "talk.mp4");
    expect((await save(event.id, title, -DAY, { recording_file: recording })).status).toBe(302);
    const before = await getStorage().list("recordings");
    const version = (await getEventById(event.id))!.version;

    const refused = async (
      captions: { name: string; bytes: Uint8Array | string },
      fields: Record<string, string> = { recording_file: recording },
    ) => {
      const res = await save(event.id, title, -DAY, fields, captions);
      expect(res.status).toBe(400);
      return (res.data.errors as Record<string, string>).captions_file;
    };
    expect(await refused({ name: "talk.srt", bytes: "1\n00:00:01,000 --> 00:00:04,000\nGood morning.\n" })).toBe(
      "“talk.srt” is not a captions file this site can use. Choose a WebVTT file (its name ends in .vtt and its first line is WEBVTT); most captioning services and video editors can save one.",
    );
    // Named .vtt, but "WEBVTTX" is not the signature.
    expect(await refused({ name: "talk.vtt", bytes: "WEBVTTX\n\n00:00:01.000 --> 00:00:02.000\nHi\n" })).toMatch(
      /^“talk\.vtt” is not a captions file/,
    );
    expect(
      await refused({
        name: "latin.vtt",
        bytes: new Uint8Array([...Buffer.from("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nCaf"), 0xe9, 0x0a]),
      }),
    ).toBe("“latin.vtt” is not plain text (UTF-8). Save the captions again as a WebVTT file in UTF-8 and choose it again.");
    expect(await refused({ name: "binary.vtt", bytes: new Uint8Array([...Buffer.from("WEBVTT\n"), 0, 1, 2, 3]) })).toMatch(
      /is not plain text \(UTF-8\)/,
    );
    expect(await refused({ name: "empty.vtt", bytes: "" })).toBe("The captions file is empty. Choose the file again.");
    expect(await refused({ name: "huge.vtt", bytes: `WEBVTT\n\n${"x".repeat(2 * 1024 * 1024)}` })).toBe(
      "The captions file is larger than 2 MB, the most this site takes. Check that you chose the captions and not the recording.",
    );
    // A link is not an uploaded recording: its captions go with the video where it is.
    expect(
      await refused(
        { name: "talk.vtt", bytes: VTT },
        { recording_file: recording, recording_remove: "on", recording_url: "https://video.example.com/x" },
      ),
    ).toBe("Captions go with an uploaded recording file. Upload the recording too, or choose no captions file.");
    // Nothing written: no file, the row as it was.
    expect(await getStorage().list("recordings")).toEqual(before);
    const after = (await getEventById(event.id))!;
    expect(after.version).toBe(version);
    expect(after.recording_captions).toBe("");
    expect(after.recording_url).toBe(recording);
  });

  it("an audio recording's .vtt is its transcript on the page (no track: an audio player shows none)", async () => {
    const title = "Audio seminar with a transcript";
    const event = await addEvent(title, -2 * DAY);
    const recording = await uploadRecording(event.id, mp4(3000, "M4A "), "talk.m4a");
    expect(recording).toMatch(/\.m4a$/);
    expect((await save(event.id, title, -2 * DAY, { recording_file: recording }, { name: "talk.vtt", bytes: VTT })).status).toBe(302);
    const key = (await getEventById(event.id))!.recording_captions;
    expect(await publicPage(event.slug)).toMatchObject({
      recordingFile: "audio",
      captions: `/${key}`,
      transcript: ["Ana Rossi: Good morning, everyone.", "Today: the duty to defend."],
    });
    expect((await fetchFile(key)).status).toBe(200);
  });

  it("removing or replacing the captions, replacing the recording, and deleting the event for good remove the captions file", async () => {
    const title = "Captions kept tidy";
    const event = await addEvent(title, -DAY);
    const first = await uploadRecording(event.id, mp4(3000), "first.mp4");
    expect((await save(event.id, title, -DAY, { recording_file: first }, { name: "a.vtt", bytes: VTT })).status).toBe(302);
    const a = (await getEventById(event.id))!.recording_captions;

    // Replaced by another file.
    expect((await save(event.id, title, -DAY, { recording_file: first }, { name: "b.vtt", bytes: `${VTT}\n` })).status).toBe(302);
    const b = (await getEventById(event.id))!.recording_captions;
    expect(b).not.toBe(a);
    expect(await getStorage().size(a)).toBeUndefined();
    expect((await fetchFile(a)).status).toBe(404);
    expect((await fetchFile(b)).status).toBe(200);

    // "Remove the captions".
    expect((await save(event.id, title, -DAY, { recording_file: first, captions_remove: "on" })).status).toBe(302);
    expect((await getEventById(event.id))!.recording_captions).toBe("");
    expect(await getStorage().size(b)).toBeUndefined();

    // Captions again, then the recording replaced: the old captions go with the old recording.
    expect((await save(event.id, title, -DAY, { recording_file: first }, { name: "c.vtt", bytes: VTT })).status).toBe(302);
    const c = (await getEventById(event.id))!.recording_captions;
    const second = await uploadRecording(event.id, mp4(3500), "second.mp4");
    expect((await save(event.id, title, -DAY, { recording_file: second })).status).toBe(302);
    expect((await getEventById(event.id))!.recording_captions).toBe("");
    expect(await getStorage().size(c)).toBeUndefined();
    expect(await getStorage().size(first)).toBeUndefined();

    // A new recording and its captions in one save (the form's script uploads the recording, then sends the form with the file).
    const third = await uploadRecording(event.id, mp4(3000), "third.mp4");
    expect((await save(event.id, title, -DAY, { recording_file: third }, { name: "d.vtt", bytes: VTT })).status).toBe(302);
    const d = (await getEventById(event.id))!.recording_captions;
    expect(d).toMatch(/\.vtt$/);

    // The Trash keeps them (it can be restored); deleting for good removes both files.
    const trashed = await callRoute(
      list.action,
      new Request(`${ORIGIN}/dashboard/events`, {
        method: "POST",
        body: new URLSearchParams({ intent: "delete", id: String(event.id) }),
        headers: { cookie: editor, origin: ORIGIN },
      }),
      {},
      context,
    );
    expect(trashed.status, JSON.stringify(trashed.data)).toBe(302);
    expect(await getStorage().size(d)).toBeGreaterThan(0);
    expect((await fetchFile(d)).status).toBe(404);
    expect(await purgeFromTrash("event", event.id, TEST_ACTOR)).toBe(title);
    expect(await getStorage().size(d)).toBeUndefined();
    expect(await getStorage().size(third)).toBeUndefined();
  });
});

describe("captions of an uploaded recording (bucket)", () => {
  let bucket: TestBucket;
  let disk: Storage;
  beforeAll(async () => {
    bucket = await startS3({ bucket: "site-captions" });
    disk = getStorage();
    setStorage(bucket.storage());
  });
  afterAll(async () => {
    setStorage(disk);
    await bucket?.stop();
  });
  captionsTests("bucket");
});

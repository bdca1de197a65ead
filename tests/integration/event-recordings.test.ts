/**
 * An event's recording uploaded as a file (issue 45, item 2), through the
 * routes as the server calls them: the event form's script streams the file
 * to the upload endpoint, Save keeps its key; the file is served at
 * /recordings/… only for a published event that is over, with Range (206) so
 * a player can seek; a wrong kind of file or one over RECORDING_MAX_BYTES is
 * refused in words and nothing is kept; replacing, removing and deleting the
 * event for good remove the file. The same on a bucket (s3rver), where a file
 * over one part goes up as a multipart upload and a Range is passed on.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { getEventById } from "~/.server/db/event-editing";
import { events } from "~/.server/db/schema";
import { purgeFromTrash } from "~/.server/db/trash";
import { setEnvForTests } from "~/.server/env";
import { findOrphanPictures } from "~/.server/pictures/picture-sweep";
import { getStorage, setStorage, type Storage } from "~/.server/storage/storage";
import * as create from "~/routes/admin/event-new";
import * as edit from "~/routes/admin/event-edit";
import * as list from "~/routes/admin/events";
import * as upload from "~/routes/admin/event-recording-upload";
import * as eventPage from "~/routes/public/event";
import { callRoute, guarded, testContext } from "../support/route-call";
import { signedIn } from "../support/staff-session";
import { setUpTestDatabase, TEST_ACTOR } from "../support/database";
import { startS3, type TestBucket } from "../support/s3";
import { eventForm, mp4, startRecordingSite, uploadRecordingFile } from "../support/recordings";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";
const context = testContext("192.0.2.21");
const DAY = 86_400_000;
let editor = "";
let site: Awaited<ReturnType<typeof startRecordingSite>>;

beforeAll(async () => {
  editor = await signedIn("recordings-editor@example.com", "editor");
  site = await startRecordingSite();
});

afterAll(async () => {
  await site?.close();
});

const post = (path: string, fields: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { cookie: editor, origin: ORIGIN } });

const uploadFile = (eventId: number, bytes: Buffer, name: string, type = "video/mp4") =>
  uploadRecordingFile(eventId, bytes, name, { cookie: editor, context, type });

async function addEvent(title: string, startsIn: number, extra: Record<string, string> = {}) {
  const res = await callRoute(create.action, post("/dashboard/events/new", eventForm(title, startsIn, extra)), {}, context);
  expect(res.status, JSON.stringify(res.data)).toBe(302);
  return (await getEventById(Number(/\/dashboard\/events\/(\d+)\/edit/.exec(res.location ?? "")?.[1])))!;
}

/** Save on the edit screen with the given recording fields (the rest as the form shows them). */
async function save(id: number, title: string, startsIn: number, fields: Record<string, string>) {
  const event = (await getEventById(id))!;
  return callRoute(
    edit.action,
    post(`/dashboard/events/${id}/edit`, eventForm(title, startsIn, { version: String(event.version), ...fields })),
    { id: String(id) },
    context,
  );
}

const fetchRecording = (key: string, headers: Record<string, string> = {}) => fetch(`${site.url}/${key}`, { headers });

function recordingTests(label: string, size: number) {
  it(`${label}: an upload is stored, saved with the event, and served after the event with Range (206 and the right bytes)`, async () => {
    const event = await addEvent(`Coverage review ${label}`, -3 * DAY);
    const bytes = mp4(size);
    const up = await uploadFile(event.id, bytes, "coverage review.mp4");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const key = up.body.recording!;
    expect(key).toMatch(/^recordings\/[0-9a-f-]{36}\.mp4$/);
    expect(await getStorage().size(key)).toBe(size);

    const saved = await save(event.id, `Coverage review ${label}`, -3 * DAY, { recording_file: key });
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);
    expect((await getEventById(event.id))!.recording_url).toBe(key);

    // The edit screen shows the uploaded file; the public page plays it.
    const screen = await callRoute(
      edit.loader,
      new Request(`${ORIGIN}/dashboard/events/${event.id}/edit`, { headers: { cookie: editor } }),
      {
        id: String(event.id),
      },
    );
    expect((screen.data.values as { recording_file: string; recording_url: string }).recording_file).toBe(key);
    const page = (await eventPage.loader({
      request: new Request(`${ORIGIN}/event/${event.slug}`),
      params: { slug: event.slug },
    } as never)) as { event: { recording: string; recordingFile: string } };
    expect(page.event).toMatchObject({ recording: `/${key}`, recordingFile: "video" });

    const whole = await fetchRecording(key);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(whole.headers.get("content-length")).toBe(String(size));
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await fetchRecording(key, { range: "bytes=1000-1999" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-1999/${size}`);
    expect(part.headers.get("content-length")).toBe("1000");
    expect(part.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);

    // Where a player seeks near the end, and the last bytes ("bytes=-N").
    const seek = await fetchRecording(key, { range: `bytes=${size - 300}-` });
    expect(seek.status).toBe(206);
    expect(Buffer.from(await seek.arrayBuffer()).equals(bytes.subarray(size - 300))).toBe(true);
    const tail = await fetchRecording(key, { range: "bytes=-10" });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(size - 10))).toBe(true);

    const outside = await fetchRecording(key, { range: `bytes=${size}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("content-range")).toBe(`bytes */${size}`);
  });

  it(`${label}: not served before the event is over, nor for a draft`, async () => {
    const upcoming = await addEvent(`Upcoming seminar ${label}`, 5 * DAY);
    const a = (await uploadFile(upcoming.id, mp4(5000), "talk.mp4")).body.recording!;
    expect((await save(upcoming.id, `Upcoming seminar ${label}`, 5 * DAY, { recording_file: a })).status).toBe(302);
    const before = await fetchRecording(a);
    expect(before.status).toBe(404);
    expect(await before.text()).toBe("Not found");
    const page = (await eventPage.loader({
      request: new Request(`${ORIGIN}/event/${upcoming.slug}`),
      params: { slug: upcoming.slug },
    } as never)) as { event: { recording: string } };
    expect(page.event.recording).toBe("");

    const draft = await addEvent(`Draft seminar ${label}`, -2 * DAY, { status: "draft" });
    const b = (await uploadFile(draft.id, mp4(5000), "talk.mp4")).body.recording!;
    expect((await save(draft.id, `Draft seminar ${label}`, -2 * DAY, { recording_file: b, status: "draft" })).status).toBe(302);
    expect((await fetchRecording(b)).status).toBe(404);
    // Published, it is served (the same file, the same address).
    expect((await save(draft.id, `Draft seminar ${label}`, -2 * DAY, { recording_file: b })).status).toBe(302);
    expect((await fetchRecording(b)).status).toBe(200);
  });
}

describe("event recordings uploaded as a file (disk)", () => {
  recordingTests("disk", 300_000);

  it("refuses another kind of file, an empty one and one over RECORDING_MAX_BYTES, in words, keeping nothing", async () => {
    const event = await addEvent("Refusals seminar", -DAY);
    const before = await getStorage().list("recordings");

    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(5000, 32)]);
    const wrong = await uploadFile(event.id, pdf, "slides.mp4", "video/mp4");
    expect(wrong.status).toBe(400);
    expect(wrong.body.status?.text).toBe(
      "“slides.mp4” is not a recording this site can play. Choose a video or audio file (MP4, M4A, MP3 or WebM), or give a link to the recording instead.",
    );
    // A Matroska file that is not WebM, however it is named.
    const mkv = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from("....matroska"), Buffer.alloc(100)]);
    expect((await uploadFile(event.id, mkv, "talk.webm", "video/webm")).status).toBe(400);

    const empty = await uploadFile(event.id, Buffer.alloc(0), "talk.mp4");
    expect(empty.status).toBe(400);
    expect(empty.body.status?.text).toBe("The recording file is empty. Choose the file again.");

    setEnvForTests({ RECORDING_MAX_BYTES: String(1024 * 1024) });
    try {
      const big = await uploadFile(event.id, mp4(1024 * 1024 + 70_000), "long talk.mp4");
      expect(big.status).toBe(413);
      expect(big.body.status?.text).toBe(
        "The recording is larger than 1 MB, the most this site takes. Export it at a lower quality (or in parts), or give a link to the recording instead.",
      );
      // Said before reading when the size is announced.
      const announced = new Request(`${ORIGIN}/dashboard/events/${event.id}/recording`, {
        method: "POST",
        body: new Uint8Array(mp4(2 * 1024 * 1024)),
        headers: { cookie: editor, origin: ORIGIN, "content-type": "video/mp4" },
      });
      const res = (await guarded(upload.action, { request: announced, params: { id: String(event.id) }, context })) as Response;
      expect(res.status).toBe(413);
    } finally {
      setEnvForTests({ RECORDING_MAX_BYTES: undefined });
    }
    expect(await getStorage().list("recordings")).toEqual(before);

    // Audio files are recognised by their bytes: an M4A and an MP3 with an ID3 tag.
    const m4a = await uploadFile(event.id, mp4(4000, "M4A "), "talk.m4a", "audio/mp4");
    expect(m4a.body.recording).toMatch(/\.m4a$/);
    const mp3 = await uploadFile(
      event.id,
      Buffer.concat([Buffer.from("ID3\u0004\u0000"), Buffer.alloc(4000, 7)]),
      "talk.mp3",
      "audio/mpeg",
    );
    expect(mp3.body.recording).toMatch(/\.mp3$/);
    // Not saved with any event: the sweep finds them.
    expect(await findOrphanPictures()).toEqual(expect.arrayContaining([m4a.body.recording, mp3.body.recording]));

    // A key no upload gave, and a file and a link at once, are refused by Save in words.
    const gone = await save(event.id, "Refusals seminar", -DAY, { recording_file: "recordings/00000000-0000-0000-0000-000000000000.mp4" });
    expect(gone.status).toBe(400);
    expect((gone.data.errors as Record<string, string>).recording_file).toBe(
      "The uploaded recording is no longer kept. Choose the file again.",
    );
    const both = await save(event.id, "Refusals seminar", -DAY, {
      recording_file: m4a.body.recording!,
      recording_url: "https://video.example.com/x",
    });
    expect(both.status).toBe(400);
    expect((both.data.errors as Record<string, string>).recording_url).toBe("Give a link or upload a file for the recording, not both.");
  });

  it("replacing or removing an uploaded recording removes its file; a link works as before; deleting the event for good removes it", async () => {
    const event = await addEvent("Replaced seminar", -DAY);
    const first = (await uploadFile(event.id, mp4(3000), "first.mp4")).body.recording!;
    expect((await save(event.id, "Replaced seminar", -DAY, { recording_file: first })).status).toBe(302);
    const second = (await uploadFile(event.id, mp4(4000), "second.mp4")).body.recording!;
    expect((await save(event.id, "Replaced seminar", -DAY, { recording_file: second })).status).toBe(302);
    expect(await getStorage().size(first)).toBeUndefined();
    expect((await fetchRecording(first)).status).toBe(404);
    expect((await fetchRecording(second)).status).toBe(200);

    // "Remove the uploaded recording" and a link instead.
    const removed = await save(event.id, "Replaced seminar", -DAY, {
      recording_file: second,
      recording_remove: "on",
      recording_url: "video.example.com/replaced",
    });
    expect(removed.status, JSON.stringify(removed.data)).toBe(302);
    expect((await getEventById(event.id))!.recording_url).toBe("https://video.example.com/replaced");
    expect(await getStorage().size(second)).toBeUndefined();
    const page = (await eventPage.loader({
      request: new Request(`${ORIGIN}/event/${event.slug}`),
      params: { slug: event.slug },
    } as never)) as { event: { recording: string; recordingFile: string | null } };
    expect(page.event).toMatchObject({ recording: "https://video.example.com/replaced", recordingFile: null });

    // Uploaded again, then the event goes to the Trash (the file stays: it can be restored) and is deleted for good.
    const third = (await uploadFile(event.id, mp4(3000), "third.mp4")).body.recording!;
    expect((await save(event.id, "Replaced seminar", -DAY, { recording_file: third })).status).toBe(302);
    const trashed = await callRoute(list.action, post("/dashboard/events", { intent: "delete", id: String(event.id) }), {}, context);
    expect(trashed.status, JSON.stringify(trashed.data)).toBe(302);
    expect(await getStorage().size(third)).toBe(3000);
    expect((await fetchRecording(third)).status).toBe(404);
    expect(await purgeFromTrash("event", event.id, TEST_ACTOR)).toBe("Replaced seminar");
    expect(await getStorage().size(third)).toBeUndefined();
    expect(await db().select().from(events).where(eq(events.id, event.id))).toEqual([]);
  });
});

describe("event recordings uploaded as a file (bucket)", () => {
  let bucket: TestBucket;
  let disk: Storage;
  beforeAll(async () => {
    bucket = await startS3({ bucket: "site-recordings" });
    disk = getStorage();
    setStorage(bucket.storage());
  });
  afterAll(async () => {
    setStorage(disk);
    await bucket?.stop();
  });
  // Over one 8 MB part: a multipart upload; the Range is passed on to the bucket.
  recordingTests("bucket", 9 * 1024 * 1024 + 12_345);
});

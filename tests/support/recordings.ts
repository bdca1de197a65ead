/**
 * What the event-recording and captions integration tests share: a recording
 * file's bytes, the public side serving /recordings/…, the event form's
 * fields, and the upload the event form's script makes.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { toFirmLocalInput } from "~/lib/firm-time";
import * as upload from "~/routes/admin/event-recording-upload";
import { sendRecording } from "../../server/recordings";
import { guarded, type testContext } from "./route-call";

const ORIGIN = "http://localhost:3000";

/** An MP4's first bytes (an "ftyp" box, brand isom) followed by `size` bytes in all of a counting pattern. */
export function mp4(size: number, brand = "isom"): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = i % 251;
  bytes.writeUInt32BE(24, 0);
  bytes.write(`ftyp${brand}`, 4, "latin1");
  return bytes;
}

/** The public side as the server answers /recordings/… (server/app.ts hands the path to sendRecording). */
export async function startRecordingSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const site = http.createServer((req, res) => void sendRecording(req, res, "t"));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}

/** The event form's fields for a published webinar starting `startsIn` ms from now, two hours long. */
export function eventForm(title: string, startsIn: number, extra: Record<string, string> = {}) {
  const starts = new Date(Date.now() + startsIn);
  return {
    intent: "save",
    title,
    copy: "What changed this year.",
    format: "webinar",
    practice_area: "insurance",
    starts_at: toFirmLocalInput(starts),
    ends_at: toFirmLocalInput(new Date(starts.getTime() + 2 * 3_600_000)),
    status: "published",
    ...extra,
  };
}

/** A body sent in 64 KB pieces, as a browser's upload arrives (no Content-Length). */
export function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65536));
      at += 65536;
    },
  });
}

/** The event form's script sending a recording file to /dashboard/events/:id/recording; its answer. */
export async function uploadRecordingFile(
  eventId: number,
  bytes: Buffer,
  name: string,
  as: { cookie: string; context: ReturnType<typeof testContext>; type?: string },
) {
  const request = new Request(`${ORIGIN}/dashboard/events/${eventId}/recording`, {
    method: "POST",
    body: streamOf(bytes),
    duplex: "half",
    headers: { cookie: as.cookie, origin: ORIGIN, "content-type": as.type ?? "video/mp4", "x-file-name": encodeURIComponent(name) },
  } as RequestInit);
  const res = (await guarded(upload.action, { request, params: { id: String(eventId) }, context: as.context })) as Response;
  return { status: res.status, body: (await res.json()) as { recording?: string; status?: { text: string } } };
}

/**
 * Uploaded event recordings (issue 45): the upload streamed to storage (the
 * bucket or DATA_DIR/uploads), its kind read from its first bytes, its size
 * capped (RECORDING_MAX_BYTES). A refusal is a RecordingRefused whose message
 * is shown as it is.
 */
import { randomUUID } from "node:crypto";
import { CAPTIONS_MAX_BYTES, CAPTIONS_MSG, RECORDING_MSG, isCaptionsKey, isRecordingKey, vttTranscript } from "~/lib/recordings";
import { getStorage, StorageUnavailable, type RecordingExtension } from "../storage/storage";
import { log } from "../log";
import { captionsArePublic, recordingIsPublic } from "../db/events";

export class RecordingRefused extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** What a file is by its first bytes (at least 64 when the file has them); undefined for anything else. */
export function sniffRecording(head: Uint8Array): RecordingExtension | undefined {
  // ISO base media (MP4, M4A): a box "ftyp" at byte 4, then the major brand.
  if (head.length >= 12 && ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12);
    return brand === "M4A " || brand === "M4B " ? "m4a" : "mp4";
  }
  // WebM: an EBML header naming the "webm" document type (not any Matroska file).
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    return ascii(head, 4, Math.min(head.length, 64)).includes("webm") ? "webm" : undefined;
  }
  // MP3: an ID3 tag, or an MPEG audio frame's sync bits (layer III).
  if (head.length >= 3 && ascii(head, 0, 3) === "ID3") return "mp3";
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) === 0x02) return "mp3";
  return undefined;
}

const SNIFF_BYTES = 64;

/**
 * Streams an upload to storage as `recordings/{uuid}.{ext}`, `ext` from its
 * first bytes; refuses another kind, an empty file or more than `maxBytes`
 * (nothing is kept). Returns the key.
 */
export async function storeRecording(body: ReadableStream<Uint8Array>, fileName: string, maxBytes: number): Promise<string> {
  const reader = (body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  // The first bytes, enough to say what the file is.
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < SNIFF_BYTES) {
      const next = await reader.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.byteLength;
    }
  } catch {
    throw new RecordingRefused(RECORDING_MSG.notReceived);
  }
  if (headBytes === 0) throw new RecordingRefused(RECORDING_MSG.empty);
  const first = Buffer.concat(head);
  const ext = sniffRecording(first);
  if (!ext) {
    await reader.return?.();
    throw new RecordingRefused(RECORDING_MSG.wrongType(fileName || "The file"));
  }
  const key = `recordings/${randomUUID()}.${ext}`;
  async function* chunks() {
    let size = first.byteLength;
    if (size > maxBytes) throw new RecordingRefused(RECORDING_MSG.tooLarge(maxBytes), 413);
    yield first;
    if (ended) return;
    while (true) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await reader.next();
      } catch {
        throw new RecordingRefused(RECORDING_MSG.notReceived);
      }
      if (next.done) return;
      size += next.value.byteLength;
      if (size > maxBytes) {
        await reader.return?.();
        throw new RecordingRefused(RECORDING_MSG.tooLarge(maxBytes), 413);
      }
      yield next.value;
    }
  }
  try {
    await getStorage().putStream(key, chunks(), maxBytes, () => new RecordingRefused(RECORDING_MSG.tooLarge(maxBytes), 413));
  } catch (error) {
    if (error instanceof RecordingRefused) throw error;
    log("error", "recording not stored", { key, error: (error as Error).message });
    throw new RecordingRefused(RECORDING_MSG.unavailable, error instanceof StorageUnavailable ? 503 : 500);
  }
  return key;
}

/** Removes an uploaded recording or its captions (a link or '' is left alone); a store that does not answer leaves it to the sweep. */
export async function deleteRecording(value: string | null | undefined): Promise<void> {
  if (!value || !(isRecordingKey(value) || isCaptionsKey(value))) return;
  await getStorage()
    .delete(value)
    .catch((error: unknown) => log("warn", "recording not removed", { key: value, error: (error as Error).message }));
}

/** Whether an uploaded recording is still stored (a save names only a file that exists). */
export async function recordingStored(key: string): Promise<boolean> {
  return (await getStorage().size(key)) !== undefined;
}

/** The size of an uploaded recording the public may watch now (its event published and over); undefined otherwise. */
export async function publicRecordingSize(key: string, now = new Date()): Promise<number | undefined> {
  if (!isRecordingKey(key) || !(await recordingIsPublic(key, now))) return undefined;
  return getStorage().size(key);
}

/** A control character other than a tab or a line's end (none is in a text file). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
  }
  return false;
}

/**
 * A captions file chosen on the event form, checked: not empty, at most CAPTIONS_MAX_BYTES, UTF-8 text
 * (a byte-order mark allowed), its first line `WEBVTT` (the WebVTT signature, alone or followed by a
 * space, a tab or the line's end). Answers the text, or a message in words (nothing is stored then).
 */
export async function readCaptions(file: File): Promise<{ text: string } | { refused: string }> {
  const name = file.name.slice(0, 200) || "The file";
  if (file.size === 0) return { refused: CAPTIONS_MSG.empty };
  if (file.size > CAPTIONS_MAX_BYTES) return { refused: CAPTIONS_MSG.tooLarge };
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { refused: CAPTIONS_MSG.notText(name) };
  }
  if (!/^WEBVTT(?:[ \t\n\r]|$)/.test(text)) return { refused: CAPTIONS_MSG.wrongType(name) };
  // A NUL or another control character is no subtitle text (a binary file that happens to start with the signature).
  if (hasControlCharacter(text)) return { refused: CAPTIONS_MSG.notText(name) };
  return { text };
}

/** Stores checked captions (readCaptions) as `recordings/{uuid}.vtt`, in UTF-8 without a byte-order mark; answers the key. */
export async function storeCaptions(text: string): Promise<string> {
  const key = `recordings/${randomUUID()}.vtt`;
  await getStorage().put(key, Buffer.from(text.replace(/^\uFEFF/, ""), "utf8"));
  return key;
}

/** The captions of a recording the public may watch now (served with it); undefined otherwise. */
export async function publicCaptions(key: string, now = new Date()): Promise<Buffer | undefined> {
  if (!isCaptionsKey(key) || !(await captionsArePublic(key, now))) return undefined;
  return getStorage().get(key);
}

/** The words of stored captions, for the page's transcript; null when there are none or the store does not answer. */
export async function captionsTranscript(key: string): Promise<string[] | null> {
  if (!isCaptionsKey(key)) return null;
  try {
    const bytes = await getStorage().get(key);
    return bytes ? vttTranscript(bytes.toString("utf8")) : null;
  } catch (error) {
    log("warn", "captions not read", { key, error: (error as Error).message });
    return null;
  }
}

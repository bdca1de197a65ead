/**
 * Event recordings uploaded as a file (issue 45), beside a link: the row's
 * `recording_url` holds either a link or the storage key of the file
 * (`recordings/{uuid}.{ext}`), served at `/recordings/{uuid}.{ext}` once the
 * event is over (server/recordings.ts). Shared by the dashboard's form (its
 * checks before sending) and the server (the authority).
 */

export const RECORDING_KEY = /^recordings\/[0-9a-f-]{36}\.(mp4|m4a|mp3|webm)$/;

/** Whether a `recording_url` value is an uploaded file (not a link). */
export function isRecordingKey(value: string): boolean {
  return RECORDING_KEY.test(value);
}

/** The public address of an uploaded recording (stable: the file's name never changes). */
export function recordingPath(key: string): string {
  return `/${key}`;
}

/** Whether the file plays as audio (an <audio> player) rather than video. */
export function isAudioRecording(key: string): boolean {
  return /\.(m4a|mp3)$/.test(key);
}

/** An uploaded recording's captions (WebVTT), kept beside it: `recordings/{uuid}.vtt`, served with it (server/recordings.ts). */
export const CAPTIONS_KEY = /^recordings\/[0-9a-f-]{36}\.vtt$/;

export function isCaptionsKey(value: string): boolean {
  return CAPTIONS_KEY.test(value);
}

/** The most a captions file may be: a long talk's captions are a few hundred kilobytes. */
export const CAPTIONS_MAX_BYTES = 2 * 1024 * 1024;

export const CAPTIONS_ACCEPT = ".vtt,text/vtt";

export const CAPTIONS_MSG = {
  wrongType: (name: string) =>
    `“${name}” is not a captions file this site can use. Choose a WebVTT file (its name ends in .vtt and its first line is WEBVTT); most captioning services and video editors can save one.`,
  notText: (name: string) => `“${name}” is not plain text (UTF-8). Save the captions again as a WebVTT file in UTF-8 and choose it again.`,
  tooLarge: `The captions file is larger than ${CAPTIONS_MAX_BYTES / 1024 / 1024} MB, the most this site takes. Check that you chose the captions and not the recording.`,
  empty: "The captions file is empty. Choose the file again.",
  noRecording: "Captions go with an uploaded recording file. Upload the recording too, or choose no captions file.",
  unavailable: "The captions could not be stored right now (the file storage did not answer). Please try again in a minute.",
  missing:
    "This video has no captions, so people who are deaf or hard of hearing cannot follow it. Ontario's accessibility law (AODA) asks for captions on recorded video: add a captions file (.vtt) below.",
  missingTranscript:
    "This audio recording has no transcript, so people who are deaf or hard of hearing cannot follow it. Ontario's accessibility law (AODA) asks for a transcript of recorded audio: add one as a WebVTT file (.vtt) below.",
} as const;

/** The check the form makes before sending (the server reads the file again): a .vtt name, not empty, not too large. */
export function captionsFileProblem(file: { name: string; size: number }): string | undefined {
  if (!/\.vtt$/i.test(file.name)) return CAPTIONS_MSG.wrongType(file.name);
  if (file.size === 0) return CAPTIONS_MSG.empty;
  if (file.size > CAPTIONS_MAX_BYTES) return CAPTIONS_MSG.tooLarge;
  return undefined;
}

/**
 * The words of a WebVTT file as a transcript: each cue's text, its timing lines, identifiers,
 * NOTE/STYLE/REGION blocks and tags (`<v Speaker>`, `<i>`) left out; a speaker's name kept before
 * the words. Plain text, shown as text (never as HTML).
 */
export function vttTranscript(vtt: string): string[] {
  const blocks = vtt
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/);
  const lines: string[] = [];
  for (const block of blocks.slice(1)) {
    const rows = block.split("\n");
    const timing = rows.findIndex((r) => r.includes("-->"));
    if (timing === -1) continue;
    const text = rows
      .slice(timing + 1)
      .join(" ")
      .replace(/<v(?:\.[^ >]*)?\s+([^>]*)>/g, "$1: ")
      .replace(/<[^>]*>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&nbsp;/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/\s+/g, " ")
      .trim();
    if (text && text !== lines[lines.length - 1]) lines.push(text);
  }
  return lines;
}

/** The names a recording file may end with (the file's first bytes decide what it is). */
export const RECORDING_ACCEPT = ".mp4,.m4a,.mp3,.webm,video/mp4,video/webm,audio/mp4,audio/mpeg,audio/webm";

const NAME = /\.(mp4|m4v|m4a|mp3|webm)$/i;

export function sizeText(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.max(1, Math.round(bytes / 1024 ** 2))} MB`;
}

export const RECORDING_MSG = {
  wrongType: (name: string) =>
    `“${name}” is not a recording this site can play. Choose a video or audio file (MP4, M4A, MP3 or WebM), or give a link to the recording instead.`,
  tooLarge: (max: number) =>
    `The recording is larger than ${sizeText(max)}, the most this site takes. Export it at a lower quality (or in parts), or give a link to the recording instead.`,
  empty: "The recording file is empty. Choose the file again.",
  notReceived: "The recording was not received in full (the connection was interrupted). Choose the file and save again.",
  unavailable: "The recording could not be stored right now (the file storage did not answer). Please try again in a minute.",
  gone: "The uploaded recording is no longer kept. Choose the file again.",
  both: "Give a link or upload a file for the recording, not both.",
} as const;

/** The check the form makes before sending (the server checks the bytes again): a name it takes, a size under `max`. */
export function recordingFileProblem(file: { name: string; size: number }, max: number): string | undefined {
  if (!NAME.test(file.name)) return RECORDING_MSG.wrongType(file.name);
  if (file.size === 0) return RECORDING_MSG.empty;
  if (file.size > max) return RECORDING_MSG.tooLarge(max);
  return undefined;
}

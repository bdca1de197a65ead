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

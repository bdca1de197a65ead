/**
 * What every picture store (storage.ts: the disk; storage-s3.ts: a bucket) keeps to: the interface, the
 * error for a store that cannot be reached, and which keys exist. Its own module so that the two stores and
 * the choice between them (storage.ts) import it without importing each other.
 */
export const IMAGE_FOLDERS = ["team", "articles"] as const;
export type ImageFolder = (typeof IMAGE_FOLDERS)[number];
/** Folders `list` reads: the pictures', the PDF bios', the imported files', the WordPress exports waiting for their import, and event recordings. */
export type StorageFolder = ImageFolder | "bios" | "files" | "imports" | "recordings";

/** Uploaded WordPress exports (`imports/{upload time in ms}-{uuid}.xml`): read by the import job on any instance, never served. */
export const IMPORT_KEY = /^imports\/([0-9]{13})-[0-9a-f-]{36}\.xml$/;

/** Uploaded event recordings (`recordings/{uuid}.{ext}`, issue 45): the kinds taken, by what their first bytes say. */
export const RECORDING_EXTENSIONS = ["mp4", "m4a", "mp3", "webm"] as const;
export type RecordingExtension = (typeof RECORDING_EXTENSIONS)[number];

/** Files a WordPress import brought that are not pictures (served at /files/{name}; kept in backups), with their Content-Type. */
const FILE_TYPES = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  rtf: "application/rtf",
  zip: "application/zip",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  mp4: "video/mp4",
};
export const FILE_EXTENSIONS = Object.keys(FILE_TYPES) as (keyof typeof FILE_TYPES)[];
/** The Content-Type of a stored file that is not a picture: an imported file's, or a recording's (`webm` is only a recording's). */
const CONTENT_TYPES: Record<string, string> = { ...FILE_TYPES, webm: "video/webm" };

/**
 * put/get/delete/list of picture files. `get` answers undefined for a key
 * that is not stored; a store that cannot be reached (a bucket that does not
 * answer, refused credentials, a full disk) throws StorageUnavailable.
 */
export interface Storage {
  /** "disk" or "bucket" (log lines, the sweep's choice of schedule). */
  readonly kind: "disk" | "bucket";
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  /**
   * Writes a file of any size from a stream, holding at most a part of it in memory (a bucket: a multipart
   * upload of 8 MB parts); throws `tooLarge()` past `maxBytes` and keeps nothing then. Returns the bytes written.
   */
  putStream(key: string, body: AsyncIterable<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<number>;
  /** A stored file as a stream of bytes (undefined when it is not stored). */
  getStream(key: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  delete(key: string): Promise<void>;
  /** The size in bytes of a stored file; undefined when it is not stored. */
  size(key: string): Promise<number | undefined>;
  /** Bytes `start` to `end` (inclusive) of a stored file, as a stream; undefined when it is not stored. */
  readRange(key: string, start: number, end: number): Promise<NodeJS.ReadableStream | undefined>;
  /** Every key in a folder (a bucket is listed page by page). */
  list(folder: StorageFolder): Promise<string[]>;
  /** Removes half-written files a crash left behind (older than `olderThanMs`); how many. */
  removeStaleTemporary?(olderThanMs: number): Promise<number>;
  /** Throws StorageUnavailable when the store does not answer (a start-up check). */
  check?(): Promise<void>;
  /** Frees connections (scripts, tests). */
  close?(): void;
}

/** The picture store could not be reached or refused the request; nothing about the key itself. */
export class StorageUnavailable extends Error {
  override name = "StorageUnavailable";
}

/** The Content-Type of a stored picture, from its key. */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  if (ext === "xml") return "application/xml";
  // A recording's captions (WebVTT): a player reads them as text.
  if (ext === "vtt") return "text/vtt; charset=utf-8";
  return CONTENT_TYPES[ext] ?? (ext === "jpg" ? "image/jpeg" : `image/${ext}`);
}

const KEY = new RegExp(
  `^(?:(team|articles|og)/[a-z0-9-]{1,80}\\.(jpg|png|webp|avif)|bios/[a-z0-9-]{1,80}\\.pdf|files/[a-z0-9-]{1,120}\\.(?:${FILE_EXTENSIONS.join("|")})|recordings/[0-9a-f-]{36}\\.(?:${RECORDING_EXTENSIONS.join("|")}|vtt))$`,
);

export function isValidKey(key: string): boolean {
  return KEY.test(key);
}

/** A key a store reads and writes: a picture's or file's (isValidKey, the only ones served or backed up), or an uploaded export's. */
export function isStoredKey(key: string): boolean {
  return KEY.test(key) || IMPORT_KEY.test(key);
}

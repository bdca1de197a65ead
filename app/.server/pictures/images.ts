/**
 * Uploaded pictures: the real type is read from the bytes (JPEG, PNG, WebP,
 * AVIF; everything else refused), at most 10 MB and 40 megapixels (AVIF 5), then
 * re-encoded with sharp (metadata such as GPS stripped) into the original
 * format plus responsive WebP widths, and stored under a fresh uuid. AVIF
 * widths are made from the stored original on their first request
 * (getImageVariant): AVIF encoding costs 0.1–1 s a width, which a save
 * should not wait for, and pictures stored before AVIF was served get them
 * the same way. When pictures are served straight from the bucket
 * (PICTURE_BASE_URL) nothing can be made on request, so an upload makes its
 * AVIF widths too, and completePictureWidths() makes those of older pictures.
 */
import { randomUUID } from "node:crypto";
import sharp, { type Metadata, type Sharp } from "sharp";
import { imageKeys, parseVariantKey, uploadKeys, VARIANT_FORMATS, widthsOf, type ImageKind, type VariantFormat } from "~/lib/images";
import { getEnv } from "../env";
import { createLimiter } from "../http/limiter";
import { getStorage, StorageUnavailable } from "../storage/storage";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;
/**
 * AVIF is decoded whole (libheif does not stream), at about 17 bytes of
 * memory a pixel: a 1 KB AVIF of 40 megapixels would take ~700 MB. Its own
 * lower limit keeps one upload under ~100 MB, like the other formats at 40
 * megapixels.
 */
export const MAX_AVIF_PIXELS = 5_000_000;
const MAX_EDGE = 2400;

sharp.concurrency(1);
sharp.cache(false);

export class ImageRejected extends Error {}

/**
 * Picture work (an upload's re-encoding, a width or link-preview picture made
 * on request) one at a time, in order of arrival: a 40-megapixel upload costs
 * up to ~70 MB while it is processed, so several at once would add up; one
 * after another they cost the same time (sharp uses one thread here anyway).
 */
export const pictureWork = createLimiter(1);

const FORMATS = { jpeg: "jpg", png: "png", webp: "webp", heif: "avif" } as const;

/** Checks the bytes and returns the format to store, or throws ImageRejected with a message for the form. */
export async function inspectImage(
  bytes: Uint8Array,
): Promise<{ ext: (typeof FORMATS)[keyof typeof FORMATS]; width: number; height: number }> {
  if (bytes.byteLength === 0) throw new ImageRejected("The chosen file is empty. Choose a JPEG, PNG, WebP or AVIF picture.");
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new ImageRejected("The picture is larger than 10 MB. Choose a smaller file.");
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected("This file is not a picture we can use. Choose a JPEG, PNG, WebP or AVIF picture.");
  }
  const format = meta.format as string;
  const ext = FORMATS[format as keyof typeof FORMATS];
  if (!ext || (format === "heif" && meta.compression !== "av1")) {
    throw new ImageRejected("Only JPEG, PNG, WebP or AVIF pictures can be uploaded.");
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw new ImageRejected("This file is not a picture we can use. Choose a JPEG, PNG, WebP or AVIF picture.");
  if (width * height > MAX_PIXELS) {
    throw new ImageRejected(`The picture is ${width}×${height} pixels; the largest allowed is 40 megapixels. Choose a smaller picture.`);
  }
  if (ext === "avif" && width * height > MAX_AVIF_PIXELS) {
    throw new ImageRejected(
      `The AVIF picture is ${width}×${height} pixels; AVIF pictures can be at most 5 megapixels. Export it smaller, or as JPEG.`,
    );
  }
  return { ext, width, height };
}

/** A picture's bytes opened for sharp within the pixel limit, failing on damaged data (uploads and stored pictures alike). */
export function readPicture(bytes: Uint8Array): Sharp {
  return sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: "error" });
}

/**
 * Decodes an upload once, turned upright and at most MAX_EDGE a side, into
 * raw pixels (at most ~23 MB), and returns a source of sharp pipelines over
 * them: the stored original and every width are encoded from those pixels,
 * so the upload is never decoded twice (an AVIF decode costs ~85 MB; doing it
 * again for each width nearly doubled an AVIF upload's peak memory).
 */
async function decodeUpload(bytes: Uint8Array): Promise<{ pixels: () => Sharp; width: number; height: number }> {
  const { data, info } = await readPicture(bytes)
    .rotate()
    .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: "inside", withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  return { pixels: () => sharp(data, { raw }), width: info.width, height: info.height };
}

/** The widths an upload writes before its row is saved: WebP, and AVIF too when the bucket serves pictures itself. */
function formatsAtUpload(): VariantFormat[] {
  return getEnv().PICTURE_BASE_URL ? ["webp", "avif"] : ["webp"];
}

/**
 * Stores a checked picture (original + widths) and returns the file name for
 * the `img` column: every file is written before it returns, so the row that
 * names it is saved after its picture. ImageRejected for a refused picture
 * (a message for the form); StorageUnavailable when the store does not answer.
 */
export async function saveImage(kind: ImageKind, bytes: Uint8Array): Promise<string> {
  return (await pictureWork.run(() => storeImage(kind, bytes))).name;
}

/**
 * A picture inside an article body (lib/body-pictures.ts): the same checks,
 * re-encoding and widths as an article picture, stored as
 * `articles/body-{uuid}.{ext}`; its name and the stored original's size
 * (the <img>'s width and height).
 */
export function saveBodyPicture(bytes: Uint8Array): Promise<{ name: string; width: number; height: number }> {
  return pictureWork.run(() => storeImage("articles", bytes, "body-"));
}

async function storeImage(kind: ImageKind, bytes: Uint8Array, prefix = ""): Promise<{ name: string; width: number; height: number }> {
  const { ext } = await inspectImage(bytes);
  const name = `${prefix}${randomUUID()}.${ext}`;
  const [originalKey] = uploadKeys(kind, name);
  const stem = name.replace(/\.\w+$/, "");
  const widths = widthsOf(kind);
  const storage = getStorage();
  const written: string[] = [];
  let size = { width: 0, height: 0 };
  const put = async (key: string, data: Uint8Array) => {
    await storage.put(key, data);
    written.push(key);
  };
  try {
    const decoded = await decodeUpload(bytes);
    const base = decoded.pixels();
    const original =
      ext === "jpg"
        ? base.jpeg({ quality: 82, mozjpeg: true })
        : ext === "png"
          ? base.png({ compressionLevel: 9 })
          : ext === "webp"
            ? base.webp({ quality: 80 })
            : base.avif({ quality: 55, effort: 2 });
    size = { width: decoded.width, height: decoded.height };
    await put(originalKey, await original.toBuffer());
    for (const format of formatsAtUpload()) {
      for (const width of widths) await put(`${kind}/${stem}-${width}.${format}`, await encodeVariant(decoded.pixels(), width, format));
    }
  } catch (error) {
    // What was written goes (or, with the store down, is left to the picture sweep).
    await Promise.all(written.map((key) => storage.delete(key).catch(() => {})));
    if (error instanceof ImageRejected || error instanceof StorageUnavailable) throw error;
    throw new ImageRejected("This picture could not be read. Choose another JPEG, PNG, WebP or AVIF picture.");
  }
  return { name, ...size };
}

/** Removes a picture and its variants (no-op for '' / 'none'). */
export async function deleteImage(kind: ImageKind, img: string | null | undefined): Promise<void> {
  if (!img || img === "none" || !/^[a-z0-9-]+\.(jpg|png|webp|avif)$/.test(img)) return;
  const storage = getStorage();
  // With its link-preview picture (app/.server/pictures/social-image.ts), contact-card photo (vcard-photo.ts) and PDF bio portrait (bio-pdf.ts), if made.
  const stem = img.replace(/\.[a-z0-9]+$/, "");
  const keys = [
    ...imageKeys(kind, img),
    `og/${kind}-${stem}.jpg`,
    ...(kind === "team" ? [`og/vcard-${stem}.jpg`, `og/bio-photo-${stem}.jpg`] : []),
  ];
  await Promise.all(keys.map((key) => storage.delete(key).catch(() => {})));
}

/**
 * Makes the widths (WebP and AVIF) missing from storage for every picture a
 * row names: with PICTURE_BASE_URL the bucket serves them and cannot make
 * them on request. One listing a folder, then one picture at a time in the
 * picture queue; how many widths were made.
 */
export async function completePictureWidths(imgsOf: (kind: ImageKind) => Promise<string[]>): Promise<number> {
  const storage = getStorage();
  let made = 0;
  for (const kind of ["team", "articles"] as const) {
    const present = new Set(await storage.list(kind));
    for (const img of await imgsOf(kind)) {
      if (!img || img === "none" || !present.has(`${kind}/${img}`)) continue;
      const stem = img.replace(/\.\w+$/, "");
      for (const format of VARIANT_FORMATS) {
        for (const width of widthsOf(kind)) {
          const key = `${kind}/${stem}-${width}.${format}`;
          if (present.has(key)) continue;
          if (await getImageVariant(key)) made++;
        }
      }
    }
  }
  return made;
}

/** One responsive width of a picture: an upload's decoded pixels, or a stored original read again. */
function encodeVariant(picture: Sharp, width: number, format: VariantFormat): Promise<Buffer> {
  const resized = picture.resize({ width, withoutEnlargement: true });
  return (format === "webp" ? resized.webp({ quality: 74 }) : resized.avif({ quality: 50, effort: 2 })).toBuffer();
}

const ORIGINAL_EXTENSIONS = ["jpg", "png", "webp", "avif"] as const;
const inflight = new Map<string, Promise<Buffer | undefined>>();

/**
 * A picture made from a stored original (`{kind}/{stem}.{ext}`) and kept
 * under `key`: from storage when made before, else made now (in the picture
 * queue) and stored. Undefined when the original is gone. Simultaneous first
 * requests share one make and one write. Used for the responsive widths and
 * the link-preview pictures (social-image.ts).
 */
export function derivedPicture(
  key: string,
  kind: ImageKind,
  stem: string,
  make: (original: Buffer) => Promise<Buffer>,
): Promise<Buffer | undefined> {
  let pending = inflight.get(key);
  if (!pending) {
    pending = loadOrMake(key, kind, stem, make).finally(() => inflight.delete(key));
    inflight.set(key, pending);
  }
  return pending;
}

async function loadOrMake(
  key: string,
  kind: ImageKind,
  stem: string,
  make: (original: Buffer) => Promise<Buffer>,
): Promise<Buffer | undefined> {
  const storage = getStorage();
  const stored = await storage.get(key);
  if (stored) return stored;
  for (const ext of ORIGINAL_EXTENSIONS) {
    const original = await storage.get(`${kind}/${stem}.${ext}`);
    if (!original) continue;
    const bytes = await pictureWork.run(() => make(original));
    // A full disk or a bucket refusing the write costs a remake next time, not the answer.
    // A width kept after its picture was removed meanwhile is taken by the picture sweep.
    await storage.put(key, bytes).catch(() => {});
    return bytes;
  }
  return undefined;
}

/**
 * A responsive width (`team/{stem}-640.avif`, `articles/{stem}-960.webp`…)
 * from storage, or made now from the stored original and kept; undefined
 * when the key is not a width of that kind or its original is gone.
 */
export function getImageVariant(key: string): Promise<Buffer | undefined> {
  const variant = parseVariantKey(key);
  if (!variant) return Promise.resolve(undefined);
  return derivedPicture(key, variant.kind, variant.stem, (original) => encodeVariant(readPicture(original), variant.width, variant.format));
}

/**
 * The portrait embedded in a lawyer's contact card: a small square JPEG
 * (at most VCARD_PHOTO_MAX_BYTES) made with sharp from the stored picture,
 * once, then kept in storage as `og/vcard-{stem}.jpg` beside the link-preview
 * pictures (regenerable; removed with the picture, images.ts deleteImage).
 */
import { derivedPicture, readPicture } from "./images";

export const VCARD_PHOTO_SIZE = 240;
export const VCARD_PHOTO_MAX_BYTES = 30 * 1024;

export function vcardPhotoKey(stem: string): string {
  return `og/vcard-${stem}.jpg`;
}

/** A square crop from the top of the portrait (4:5: the face is in its upper part), within the byte limit. */
export async function renderVCardPhoto(source: Uint8Array): Promise<Buffer> {
  for (const [size, quality] of [
    [VCARD_PHOTO_SIZE, 82],
    [VCARD_PHOTO_SIZE, 65],
    [VCARD_PHOTO_SIZE, 50],
    [180, 50],
    [120, 45],
  ] as const) {
    const bytes = await readPicture(source)
      .rotate()
      .resize(size, size, { fit: "cover", position: "north" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality, mozjpeg: true })
      .toBuffer();
    if (bytes.length <= VCARD_PHOTO_MAX_BYTES) return bytes;
  }
  throw new Error("vCard photo: could not make a small enough JPEG");
}

/** The card's photo for a stored picture file name (`{uuid}.{ext}`), or undefined when there is none. */
export async function getVCardPhoto(img: string): Promise<Buffer | undefined> {
  const stem = /^([a-z0-9-]{1,72})\.(jpg|png|webp|avif)$/.exec(img)?.[1];
  if (!stem) return undefined;
  return derivedPicture(vcardPhotoKey(stem), "team", stem, renderVCardPhoto);
}

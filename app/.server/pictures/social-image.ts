/**
 * 1200×630 link-preview pictures (Open Graph, Twitter cards) made with sharp
 * from a stored picture, once, then kept in storage as `og/{kind}-{stem}.jpg`.
 * A portrait (4:5) is set whole on the right of an ink ground with the site's
 * line pattern (a face is never cropped); an article picture fills the frame.
 */
import sharp from "sharp";
import type { ImageKind } from "~/lib/images";
import { SOCIAL_IMAGE_HEIGHT as H, SOCIAL_IMAGE_WIDTH as W } from "~/lib/social";
import { derivedPicture, readPicture } from "./images";

sharp.concurrency(1);
sharp.cache(false);

export function socialImageKey(kind: ImageKind, stem: string): string {
  return `og/${kind}-${stem}.jpg`;
}

const PORTRAIT_GROUND = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs><radialGradient id="g" cx="0.15" cy="0.2" r="0.9"><stop offset="0" stop-color="#24405f"/><stop offset="0.7" stop-color="#13233a"/></radialGradient></defs>
  <rect width="${W}" height="${H}" fill="url(#g)"/>
  <g fill="none" stroke="#d8b26a" stroke-opacity="0.16">
    <path d="M80 630V150h360v480M130 630V200h260v430M80 270h360M80 390h360M80 510h360M260 150V630"/>
    <circle cx="260" cy="150" r="200" stroke-opacity="0.09"/>
  </g>
  <rect x="80" y="96" width="96" height="4" fill="#d8b26a"/>
</svg>`);

/** Makes the 1200×630 JPEG from a stored picture's bytes. */
export async function renderSocialImage(kind: ImageKind, source: Uint8Array): Promise<Buffer> {
  const input = () => readPicture(source).rotate();
  if (kind === "articles") {
    return input()
      .resize(W, H, { fit: "cover", position: sharp.strategy.attention })
      .flatten({ background: "#13233a" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  }
  const portraitWidth = Math.round((H * 4) / 5); // 504
  const portrait = await input()
    .resize(portraitWidth, H, { fit: "cover", position: "north" })
    .flatten({ background: "#efebe2" })
    .toBuffer();
  return sharp(PORTRAIT_GROUND)
    .composite([{ input: portrait, left: W - portraitWidth - 96, top: 0 }])
    .flatten({ background: "#13233a" })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

/**
 * The link-preview picture of a stored picture (`team/{stem}.{ext}` or
 * `articles/{stem}.{ext}`): from storage when made before, else made now and
 * stored. Undefined when there is no such picture.
 */
export function getSocialImage(kind: ImageKind, stem: string): Promise<Buffer | undefined> {
  return derivedPicture(socialImageKey(kind, stem), kind, stem, (source) => renderSocialImage(kind, source));
}

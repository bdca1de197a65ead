/**
 * Link previews (Open Graph, Twitter cards): every page shares a 1200×630
 * picture. A lawyer's photo or an article's picture is cut to that size on
 * the server (`/og/{kind}/{stem}.jpg`, app/routes/seo/og-image.ts); anything
 * else uses the site's default picture in public/.
 */
import { hasImage, type ImageKind } from "./images";

export const SOCIAL_IMAGE_WIDTH = 1200;
export const SOCIAL_IMAGE_HEIGHT = 630;
export const DEFAULT_SOCIAL_IMAGE = "/og-default.jpg";

const STORED_NAME = /^([a-z0-9-]{1,80})\.(jpg|png|webp|avif)$/;
const SOCIAL_FILE = /^([a-z0-9-]{1,80})\.jpg$/;

/** The site path of the 1200×630 picture for a stored picture, or the default when there is none. */
export function socialImagePath(kind: ImageKind, img: string | null | undefined): string {
  if (!hasImage(img)) return DEFAULT_SOCIAL_IMAGE;
  const match = STORED_NAME.exec(img);
  return match ? `/og/${kind}/${match[1]}.jpg` : DEFAULT_SOCIAL_IMAGE;
}

/** The stored picture's stem named by `/og/{kind}/{file}`, or null for anything else. */
export function parseSocialImageFile(kind: string, file: string): { kind: ImageKind; stem: string } | null {
  if (kind !== "team" && kind !== "articles") return null;
  const match = SOCIAL_FILE.exec(file);
  return match ? { kind, stem: match[1] } : null;
}

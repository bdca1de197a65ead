/**
 * Public URLs of pictures. `img` holds a file name such as `3f…e1.jpg`
 * ('' or 'none' means no picture: the placeholder is used). Responsive WebP
 * variants sit beside the original as `{uuid}-{width}.webp`.
 */
export const TEAM_WIDTHS = [320, 640] as const;
export const ARTICLE_WIDTHS = [480, 960] as const;

export type ImageKind = "team" | "articles";

export function hasImage(img: string | null | undefined): img is string {
  return !!img && img !== "none";
}

export function imageUrl(kind: ImageKind, img: string | null | undefined): string {
  if (!hasImage(img)) return kind === "team" ? "/placeholder-portrait.svg" : "/placeholder-article.svg";
  return `/images/${kind}/${encodeURIComponent(img)}`;
}

function stem(img: string) {
  return img.replace(/\.[a-z0-9]+$/i, "");
}

/** A `srcset` of the WebP variants, or undefined for the placeholder. */
export function imageSrcSet(kind: ImageKind, img: string | null | undefined): string | undefined {
  if (!hasImage(img)) return undefined;
  const widths = kind === "team" ? TEAM_WIDTHS : ARTICLE_WIDTHS;
  return widths.map((w) => `/images/${kind}/${encodeURIComponent(stem(img))}-${w}.webp ${w}w`).join(", ");
}

/** Every stored key belonging to one picture (original plus variants). */
export function imageKeys(kind: ImageKind, img: string): string[] {
  const widths = kind === "team" ? TEAM_WIDTHS : ARTICLE_WIDTHS;
  return [`${kind}/${img}`, ...widths.map((w) => `${kind}/${stem(img)}-${w}.webp`)];
}

/**
 * Public URLs of pictures. `img` holds a file name such as `3f…e1.jpg`
 * ('' or 'none' means no picture: the placeholder is used). Responsive
 * variants sit beside the original as `{uuid}-{width}.webp` (made with the
 * upload) and `{uuid}-{width}.avif` (made from the original on first request,
 * app/.server/pictures/images.ts).
 *
 * `base` is where pictures are fetched from: "/images" (this site serves them
 * from its storage) or PICTURE_BASE_URL (the bucket, or a CDN in front of
 * it, serves them directly); the root loader passes it to the page.
 */
export const DEFAULT_PICTURE_BASE = "/images";
export const TEAM_WIDTHS = [320, 640] as const;
export const ARTICLE_WIDTHS = [480, 960] as const;
export const VARIANT_FORMATS = ["avif", "webp"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

export type ImageKind = "team" | "articles";

export function widthsOf(kind: ImageKind): readonly number[] {
  return kind === "team" ? TEAM_WIDTHS : ARTICLE_WIDTHS;
}

export function hasImage(img: string | null | undefined): img is string {
  return !!img && img !== "none";
}

export function imageUrl(kind: ImageKind, img: string | null | undefined, base: string = DEFAULT_PICTURE_BASE): string {
  if (!hasImage(img)) return kind === "team" ? "/placeholder-portrait.svg" : "/placeholder-article.svg";
  return `${base}/${kind}/${encodeURIComponent(img)}`;
}

function stem(img: string) {
  return img.replace(/\.[a-z0-9]+$/i, "");
}

/** A `srcset` of one format's variants, or undefined for the placeholder. */
export function imageSrcSet(
  kind: ImageKind,
  img: string | null | undefined,
  format: VariantFormat = "webp",
  base: string = DEFAULT_PICTURE_BASE,
): string | undefined {
  if (!hasImage(img)) return undefined;
  return widthsOf(kind)
    .map((w) => `${base}/${kind}/${encodeURIComponent(stem(img))}-${w}.${format} ${w}w`)
    .join(", ");
}

/** Every stored key a picture may have (original plus variants), for removal. */
export function imageKeys(kind: ImageKind, img: string): string[] {
  return [`${kind}/${img}`, ...VARIANT_FORMATS.flatMap((format) => widthsOf(kind).map((w) => `${kind}/${stem(img)}-${w}.${format}`))];
}

/** The keys an upload writes (original plus WebP widths); AVIF widths follow on demand. */
export function uploadKeys(kind: ImageKind, img: string): string[] {
  return [`${kind}/${img}`, ...widthsOf(kind).map((w) => `${kind}/${stem(img)}-${w}.webp`)];
}

/** `team/{stem}-{width}.{avif|webp}` with a width of that kind: what it is made from, or undefined. */
export function parseVariantKey(key: string): { kind: ImageKind; stem: string; width: number; format: VariantFormat } | undefined {
  const match = /^(team|articles)\/([a-z0-9-]{1,72})-(\d{3,4})\.(avif|webp)$/.exec(key);
  if (!match) return undefined;
  const kind = match[1] as ImageKind;
  const width = Number(match[3]);
  if (!widthsOf(kind).includes(width)) return undefined;
  return { kind, stem: match[2], width, format: match[4] as VariantFormat };
}

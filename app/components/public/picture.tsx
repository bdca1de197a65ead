import type { ComponentProps } from "react";
import { preload } from "react-dom";
import { useRouteLoaderData } from "react-router";
import { DEFAULT_PICTURE_BASE, imageSrcSet, imageUrl, type ImageKind } from "~/lib/images";

/**
 * Where the site shows a stored picture: its kind, the `sizes` of that layout
 * (how wide it is drawn, for the browser's choice among the stored widths of
 * lib/images.ts) and the width × height written on the <img> (the picture's
 * shape, 4:5 portraits and 16:9 article pictures, so nothing moves as it loads).
 */
const PLACES = {
  /** A portrait card of the team grid (team-grid.tsx): four columns from 1024 px, three from 640 px, else two. */
  teamCard: { kind: "team", sizes: "(min-width: 1024px) 280px, (min-width: 640px) 30vw, 45vw", width: 320, height: 400 },
  /** The portrait on a lawyer's page, beside the biography from 1024 px. */
  lawyerPortrait: { kind: "team", sizes: "(min-width: 1024px) 360px, (min-width: 640px) 60vw, 90vw", width: 640, height: 800 },
  /** A lawyer's thumbnail in the dashboard's list (48 × 60 px). */
  teamThumbnail: { kind: "team", sizes: "48px", width: 48, height: 60 },
  /** An article card's picture (article-card.tsx): three columns from 1024 px, two from 640 px. */
  articleCard: { kind: "articles", sizes: "(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw", width: 480, height: 270 },
  /** An article's own picture, above its text (at most 720 px wide). */
  articleLead: { kind: "articles", sizes: "(min-width: 768px) 720px, 100vw", width: 960, height: 540 },
} as const satisfies Record<string, { kind: ImageKind; sizes: string; width: number; height: number }>;

type PictureProps = Omit<ComponentProps<"img">, "src" | "srcSet" | "alt" | "sizes" | "width" | "height"> & {
  /** Where it is shown: its kind, sizes, width and height (PLACES). */
  place: keyof typeof PLACES;
  img: string | null | undefined;
  /** What the picture shows ("" when the text beside it says it all). */
  alt: string;
};

/**
 * A stored picture at the width the layout needs: AVIF widths first, WebP
 * widths for the rest, the original as the last resort; the placeholder
 * when there is none. The place's width and height, and the rest, go to the <img>.
 *
 * With fetchPriority="high" (the lawyer photo, an article's picture) the
 * AVIF widths are also preloaded from the head, as React does by itself for
 * a plain <img> but not for one inside <picture>.
 *
 * URLs start at the layout loader's `pictureBase` (public or dashboard):
 * this site's /images, or PICTURE_BASE_URL (the bucket or a CDN serves them).
 */
export function Picture({ place, img, alt, ...imgProps }: PictureProps) {
  const { kind, sizes, width, height } = PLACES[place];
  const publicBase = useRouteLoaderData<{ pictureBase?: string }>("routes/public/layout")?.pictureBase;
  const dashboardBase = useRouteLoaderData<{ pictureBase?: string }>("routes/admin/layout")?.pictureBase;
  const base = publicBase ?? dashboardBase ?? DEFAULT_PICTURE_BASE;
  const src = imageUrl(kind, img, base);
  const webp = imageSrcSet(kind, img, "webp", base);
  if (!webp) return <img src={src} alt={alt} width={width} height={height} {...imgProps} />;
  const avif = imageSrcSet(kind, img, "avif", base);
  if (imgProps.fetchPriority === "high") {
    preload(src, { as: "image", imageSrcSet: avif, imageSizes: sizes, type: "image/avif", fetchPriority: "high" });
  }
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      <img src={src} srcSet={webp} sizes={sizes} alt={alt} width={width} height={height} {...imgProps} />
    </picture>
  );
}

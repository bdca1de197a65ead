import type { ComponentProps } from "react";
import { preload } from "react-dom";
import { useRouteLoaderData } from "react-router";
import { DEFAULT_PICTURE_BASE, imageSrcSet, imageUrl, type ImageKind } from "~/lib/images";

type PictureProps = Omit<ComponentProps<"img">, "src" | "srcSet" | "alt"> & {
  kind: ImageKind;
  img: string | null | undefined;
  sizes: string;
  /** What the picture shows ("" when the text beside it says it all). */
  alt: string;
};

/**
 * A stored picture at the width the layout needs: AVIF widths first, WebP
 * widths for the rest, the original as the last resort; the placeholder
 * when there is none. Width, height and the rest go to the <img>.
 *
 * With fetchPriority="high" (the lawyer photo, an article's picture) the
 * AVIF widths are also preloaded from the head, as React does by itself for
 * a plain <img> but not for one inside <picture>.
 *
 * URLs start at the layout loader's `pictureBase` (public or dashboard):
 * this site's /images, or PICTURE_BASE_URL (the bucket or a CDN serves them).
 */
export function Picture({ kind, img, sizes, alt, ...imgProps }: PictureProps) {
  const publicBase = useRouteLoaderData<{ pictureBase?: string }>("routes/public/layout")?.pictureBase;
  const dashboardBase = useRouteLoaderData<{ pictureBase?: string }>("routes/admin/layout")?.pictureBase;
  const base = publicBase ?? dashboardBase ?? DEFAULT_PICTURE_BASE;
  const src = imageUrl(kind, img, base);
  const webp = imageSrcSet(kind, img, "webp", base);
  if (!webp) return <img src={src} alt={alt} {...imgProps} />;
  const avif = imageSrcSet(kind, img, "avif", base);
  if (imgProps.fetchPriority === "high") {
    preload(src, { as: "image", imageSrcSet: avif, imageSizes: sizes, type: "image/avif", fetchPriority: "high" });
  }
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      <img src={src} srcSet={webp} sizes={sizes} alt={alt} {...imgProps} />
    </picture>
  );
}

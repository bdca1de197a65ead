import type { Route } from "./+types/og-image";
import { isPublicPicture } from "~/.server/db/seo";
import { log } from "~/.server/log";
import { getSocialImage } from "~/.server/pictures/social-image";
import { StorageUnavailable } from "~/.server/storage/storage";
import { parseSocialImageFile } from "~/lib/social";

function notFound() {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * /og/{team|articles}/{stem}.jpg: the 1200×630 link-preview picture of a
 * stored lawyer photo or article picture (made once, then kept in storage).
 * The stem is a fresh uuid per upload, so the answer never changes: immutable.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const target = parseSocialImageFile(params.kind, params.file);
  if (!target) return notFound();
  // Only a public member's or article's picture (a draft's or hidden member's is not shown anywhere public).
  if (!(await isPublicPicture(target.kind, target.stem))) return notFound();
  let bytes: Buffer | undefined;
  try {
    bytes = await getSocialImage(target.kind, target.stem);
  } catch (error) {
    if (!(error instanceof StorageUnavailable)) throw error;
    log("warn", "link-preview picture not served", { error: error.message });
    return new Response("Picture storage unavailable", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "10" },
    });
  }
  if (!bytes) return notFound();
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

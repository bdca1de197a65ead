/**
 * Pictures no row points at. A save stores the picture first and the row
 * after (admin/team.server.ts, admin/articles.server.ts), so a crash
 * (`kill -9`, power loss) between the two leaves picture files without a
 * row: never shown, but kept on disk. The sweep removes them:
 * - embedded database with pictures on its own disk (one process holds
 *   both, nothing saves before the server listens): at start-up, at once;
 * - PostgreSQL, or pictures in a bucket (other processes may be between
 *   picture and row right now): every 15 minutes (SWEEP_CRON), a file is removed
 *   only when it was already without a row at the previous sweep. A bucket
 *   is listed page by page (storage-s3.ts). One bucket serves one site: the
 *   sweep removes pictures its database does not name.
 * Half-written files (`*.tmp`, a crash during a write) go too: all of them
 * at start-up on the embedded database, those older than TEMP_MAX_AGE_MS on
 * PostgreSQL (a write takes seconds).
 * Uploaded event recordings (`recordings/…`) go the same way when no event names them.
 * Pictures inside article bodies (`articles/body-…`) are in use while an
 * article, revision or autosaved copy names one (body-pictures.ts).
 */
import { articles, events, team } from "../db/schema";
import { bodyPicturesInUse } from "./body-pictures";
import { db } from "../db/client";
import { log } from "../log";
import { getStorage, IMAGE_FOLDERS, type ImageFolder } from "../storage/storage";

/** Every 15 minutes (the job queue's cron, jobs.ts). */
export const SWEEP_CRON = "*/15 * * * *";
export const TEMP_MAX_AGE_MS = 10 * 60 * 1000;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The `img` values of a table's rows (pictures in use); for articles, their social pictures and the body pictures in use too. */
export async function rowPictures(folder: ImageFolder): Promise<string[]> {
  const table = folder === "team" ? team : articles;
  const imgs = (await db().select({ img: table.img }).from(table))
    .map((r) => r.img)
    .filter((img): img is string => !!img && img !== "none");
  if (folder !== "articles") return imgs;
  const social = (await db().select({ img: articles.social_img }).from(articles))
    .map((r) => r.img)
    .filter((img) => !!img && img !== "none");
  return [...imgs, ...social, ...(await bodyPicturesInUse())];
}

/** Storage keys of pictures (originals and their widths) that no team or article row uses. */
export async function findOrphanPictures(): Promise<string[]> {
  const storage = getStorage();
  const orphans: string[] = [];
  for (const folder of IMAGE_FOLDERS) {
    const keys = await storage.list(folder);
    if (keys.length === 0) continue;
    const imgs = await rowPictures(folder);
    const live = new Set(imgs.map((img) => `${folder}/${img}`));
    const stems = imgs.map((img) => img.replace(/\.\w+$/, ""));
    const widthOf = new RegExp(`^${escape(folder)}/(${stems.map(escape).join("|") || "(?!)"})-\\d+\\.(webp|avif)$`);
    for (const key of keys) if (!live.has(key) && !widthOf.test(key)) orphans.push(key);
  }
  // Uploaded event recordings no event (in the Trash or not) names: an upload whose form was never saved, or a crash.
  const recordings = await storage.list("recordings");
  if (recordings.length) {
    // A recording's captions (`recordings/{uuid}.vtt`) are named by the same row.
    const rows = await db().select({ url: events.recording_url, captions: events.recording_captions }).from(events);
    const named = new Set(rows.flatMap((r) => [r.url, r.captions]));
    for (const key of recordings) if (!named.has(key)) orphans.push(key);
  }
  return orphans;
}

export type PictureSweeper = {
  /** One pass; `immediate` removes every orphan now (only when no save can be under way). */
  sweep(immediate?: boolean): Promise<{ removed: string[]; waiting: number; temporaryRemoved: number }>;
};

/** A sweeper whose suspects carry from one pass to the next (the `picture-sweep` job keeps one; jobs.ts). */
export function createPictureSweeper(): PictureSweeper {
  let suspects = new Set<string>();
  return {
    async sweep(immediate = false) {
      const orphans = await findOrphanPictures();
      const removable = immediate ? orphans : orphans.filter((k) => suspects.has(k));
      const storage = getStorage();
      for (const key of removable) await storage.delete(key);
      suspects = new Set(orphans.filter((k) => !removable.includes(k)));
      if (removable.length) log("info", "pictures without a row removed", { count: removable.length, keys: removable.slice(0, 20) });
      const temporaryRemoved = (await storage.removeStaleTemporary?.(immediate ? 0 : TEMP_MAX_AGE_MS)) ?? 0;
      if (temporaryRemoved) log("info", "half-written picture files removed", { count: temporaryRemoved });
      return { removed: removable, waiting: suspects.size, temporaryRemoved };
    },
  };
}

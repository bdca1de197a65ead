/**
 * Pictures inside article bodies (lib/body-pictures.ts) on the server: which
 * ones are in use, and removing an article's when it is purged.
 *
 * A body picture is in use while any article (in the Trash too), any
 * article revision or any autosaved working copy names it: a restored
 * revision or draft must find its pictures. An edit that drops a picture
 * from the body therefore keeps the file; purging the article from the Trash
 * (trash.ts: "Delete permanently" and the 30-day sweep) removes every body
 * picture its body, revisions and working copies named that nothing else
 * names. A picture uploaded into the editor and never saved is named by the
 * autosaved copy within seconds; one never saved anywhere is left to the
 * picture sweep (picture-sweep.ts counts every body picture in use as used).
 */
import { rowsOf } from "../db/rows";
import { sql } from "drizzle-orm";
import { bodyPictureNames } from "~/lib/body-pictures";
import { db, type Db } from "../db/client";
import { deleteImage } from "./images";
import { log } from "../log";

/** PostgreSQL's ARE: the file name of every body picture a text names (group 1). */
const NAME_PATTERN = "/images/articles/(body-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.(?:jpg|png|webp|avif))";
const MARK = "%/images/articles/body-%";

/**
 * Every body picture in use: named by an article's body, an article
 * revision's or an autosaved working copy's. Only rows that mention a body
 * picture are read (a LIKE filter), and only the names leave the database.
 */
export async function bodyPicturesInUse(tx: Db = db()): Promise<Set<string>> {
  const result = await tx.execute(sql`
    select distinct (regexp_matches(t.txt, ${NAME_PATTERN}, 'g'))[1] as name from (
      select copy as txt from articles where copy like ${MARK}
      union all
      select fields->>'copy' from revisions where item_type = 'article' and fields->>'copy' like ${MARK}
      union all
      select "values"->>'copy' from article_autosaves where "values"->>'copy' like ${MARK}
    ) t`);
  return new Set(rowsOf<{ name: string }>(result).map((r) => r.name));
}

/** The body pictures an article's body, revisions and working copies name (read before it is purged). */
export async function bodyPicturesOfArticle(tx: Db, id: number): Promise<string[]> {
  const result = await tx.execute(sql`
    select copy as txt from articles where id = ${id} and copy like ${MARK}
    union all
    select fields->>'copy' from revisions where item_type = 'article' and item_id = ${id} and fields->>'copy' like ${MARK}
    union all
    select "values"->>'copy' from article_autosaves where article_id = ${id} and "values"->>'copy' like ${MARK}`);
  return [...new Set(rowsOf<{ txt: string | null }>(result).flatMap((r) => bodyPictureNames(r.txt)))];
}

/**
 * Removes those of `names` (with their widths) that nothing names any more:
 * called after the rows that named them are gone. A store that does not
 * answer leaves them to the picture sweep.
 */
export async function removeUnusedBodyPictures(names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const inUse = await bodyPicturesInUse();
  const unused = names.filter((n) => !inUse.has(n));
  for (const name of unused) {
    await deleteImage("articles", name).catch((error: unknown) =>
      log("warn", "body picture not removed", { name, error: (error as Error).message }),
    );
  }
  return unused;
}

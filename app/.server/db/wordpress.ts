/**
 * Queries for the WordPress import (tables `wordpress_items`,
 * `wordpress_files`; app/.server/wordpress/import.ts): what an earlier import
 * made of each item and file, so that importing again changes only what
 * changed.
 */
import { and, eq, isNull } from "drizzle-orm";
import { db, type Db } from "./client";
import { articles, team, wordpressFiles, wordpressItems } from "./schema";

export type KnownItem = {
  wp_id: number;
  article_id: number | null;
  source_hash: string;
  article_version: number | null;
  /** The article now (null: gone, or never made). */
  article: { slug: string; version: number; trashed: boolean } | null;
};

export async function knownItems(site: string): Promise<Map<number, KnownItem>> {
  const rows = await db()
    .select({
      wp_id: wordpressItems.wp_id,
      article_id: wordpressItems.article_id,
      source_hash: wordpressItems.source_hash,
      article_version: wordpressItems.article_version,
      slug: articles.slug,
      version: articles.version,
      deleted_at: articles.deleted_at,
    })
    .from(wordpressItems)
    .leftJoin(articles, eq(articles.id, wordpressItems.article_id))
    .where(eq(wordpressItems.site, site));
  return new Map(
    rows.map((r) => [
      r.wp_id,
      {
        wp_id: r.wp_id,
        article_id: r.article_id,
        source_hash: r.source_hash,
        article_version: r.article_version,
        article: r.slug !== null && r.version !== null ? { slug: r.slug, version: r.version, trashed: r.deleted_at !== null } : null,
      },
    ]),
  );
}

export async function saveKnownItem(
  tx: Db,
  row: { site: string; wp_id: number; kind: string; article_id: number | null; source_hash: string; article_version: number | null },
): Promise<void> {
  await tx
    .insert(wordpressItems)
    .values(row)
    .onConflictDoUpdate({
      target: [wordpressItems.site, wordpressItems.wp_id],
      set: {
        kind: row.kind,
        article_id: row.article_id,
        source_hash: row.source_hash,
        article_version: row.article_version,
        imported_at: new Date(),
      },
    });
}

export type KnownFile = { source_url: string; url: string; kind: string; width: number | null; height: number | null };

/** Every file an import downloaded (by its old URL). */
export async function knownFiles(): Promise<Map<string, KnownFile>> {
  const rows = await db()
    .select({
      source_url: wordpressFiles.source_url,
      url: wordpressFiles.url,
      kind: wordpressFiles.kind,
      width: wordpressFiles.width,
      height: wordpressFiles.height,
    })
    .from(wordpressFiles);
  return new Map(rows.map((r) => [r.source_url, r]));
}

export async function saveKnownFile(row: KnownFile): Promise<void> {
  await db().insert(wordpressFiles).values(row).onConflictDoNothing();
}

/** Every article slug in use (a new article's slug is chosen before it is written, so links to it can be rewritten). */
export async function articleSlugsInUse(): Promise<Set<string>> {
  const rows = await db().select({ slug: articles.slug }).from(articles);
  return new Set(rows.map((r) => r.slug));
}

/** Team members an author may be matched to (not in the Trash). */
export async function teamForAuthorMatching(): Promise<{ id: number; full_name: string; email: string; slug: string }[]> {
  return db()
    .select({ id: team.id, full_name: team.full_name, email: team.email, slug: team.slug })
    .from(team)
    .where(and(isNull(team.deleted_at)));
}

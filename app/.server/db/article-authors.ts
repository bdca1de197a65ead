/**
 * Authors of articles (table `article_authors`): the team members an article
 * names, in the order chosen. Written in the article's own save transaction
 * (db/articles.ts), kept in its revisions and audit entries as
 * `{ id, name }` pairs. The public sees only authors visibility.ts allows
 * (a hidden or trashed member is left out of the post, its JSON-LD and the
 * author filter of /insights).
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { MAX_AUTHORS } from "~/lib/forms/article";
import { db, type Db } from "./client";
import { articleAuthors, team } from "./schema";
import { teamMemberIsPublic, teamMemberNotTrashed } from "./visibility";

/** An author as revisions and the audit trail keep it: the member's id and name at the time. */
export type AuthorRef = { id: number; name: string };

/** Every author of an article, whatever the member's state, in the chosen order. */
export async function authorsOf(tx: Db, articleId: number): Promise<AuthorRef[]> {
  return tx
    .select({ id: team.id, name: team.full_name })
    .from(articleAuthors)
    .innerJoin(team, eq(team.id, articleAuthors.member_id))
    .where(eq(articleAuthors.article_id, articleId))
    .orderBy(asc(articleAuthors.position), asc(team.id));
}

/**
 * Replaces an article's authors (in the caller's transaction). Duplicates
 * and ids no member has (purged since a revision was kept) are left out.
 * Returns the authors written.
 */
export async function setAuthors(tx: Db, articleId: number, memberIds: readonly number[]): Promise<AuthorRef[]> {
  const wanted = [...new Set(memberIds.filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647))].slice(0, MAX_AUTHORS);
  const existing = wanted.length ? await tx.select({ id: team.id, name: team.full_name }).from(team).where(inArray(team.id, wanted)) : [];
  const byId = new Map(existing.map((m) => [m.id, m]));
  const kept = wanted.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
  await tx.delete(articleAuthors).where(eq(articleAuthors.article_id, articleId));
  if (kept.length)
    await tx.insert(articleAuthors).values(kept.map((m, position) => ({ article_id: articleId, member_id: m.id, position })));
  return kept;
}

/** The authors' names as the audit trail records them. */
export function authorNames(authors: readonly AuthorRef[]): string[] {
  return authors.map((a) => a.name);
}

/** An article's authors for the dashboard's form (ids, in order). */
export async function articleAuthorIds(articleId: number): Promise<number[]> {
  return (await authorsOf(db(), articleId)).map((a) => a.id);
}

export type AuthorChoice = { id: number; full_name: string; title: string; note: string };

/**
 * The members the article form offers: everyone not in the Trash (hidden
 * members too: a new hire's article can be prepared), sorted by name, plus
 * the article's current authors when one is in the Trash (so a save keeps them).
 */
export async function listAuthorChoices(currentIds: readonly number[] = []): Promise<AuthorChoice[]> {
  const rows = await db()
    .select({ id: team.id, full_name: team.full_name, title: team.title, visible: team.visible, deleted_at: team.deleted_at })
    .from(team)
    .where(currentIds.length ? or(teamMemberNotTrashed(), inArray(team.id, [...currentIds])) : teamMemberNotTrashed())
    .orderBy(sql`lower(${team.full_name})`, asc(team.id));
  return rows.map((r) => ({
    id: r.id,
    full_name: r.full_name,
    title: r.title,
    note: r.deleted_at ? "in the Trash" : r.visible ? "" : "hidden",
  }));
}

/** An article's authors the public may see, in the chosen order (post page, JSON-LD). */
export async function listPublicAuthors(articleId: number): Promise<{ id: number; slug: string; full_name: string }[]> {
  return db()
    .select({ id: team.id, slug: team.slug, full_name: team.full_name })
    .from(articleAuthors)
    .innerJoin(team, eq(team.id, articleAuthors.member_id))
    .where(and(eq(articleAuthors.article_id, articleId), teamMemberIsPublic()))
    .orderBy(asc(articleAuthors.position), asc(team.id));
}

/** Articles naming this member (the author filter of the public lists; `articles.id in (…)`). */
export function articlesByAuthor(memberId: number) {
  return db().select({ id: articleAuthors.article_id }).from(articleAuthors).where(eq(articleAuthors.member_id, memberId));
}

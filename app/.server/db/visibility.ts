/**
 * What the public may see: the one place that says it. Every public query
 * (pages, lists and counts, the home teaser, practice tabs, sitemap, RSS,
 * link-preview pictures, vCards, search, moved-slug lookups) adds these
 * conditions; dashboard queries do not.
 *
 * - An article is public when it is published and not in the Trash. A
 *   scheduled article becomes published when its time comes (the
 *   `scheduled-publishing` job in jobs.ts), so the condition holds no clock
 *   and the partial indexes of schema.ts (same predicate) serve the lists.
 * - A team member is public when visible and not in the Trash; "visible
 *   from" / "hidden from" are applied by the same job.
 *
 * Written as SQL text with literals (not parameters) so PostgreSQL can prove
 * the partial indexes' predicate also in a generic prepared-statement plan.
 */
import { sql, type SQL } from "drizzle-orm";
import { articles, events, team } from "./schema";

export const ARTICLE_STATES = ["draft", "scheduled", "published"] as const;
export type ArticleState = (typeof ARTICLE_STATES)[number];

/** Public articles (same predicate as the partial indexes in schema.ts). */
export function articleIsPublic(): SQL {
  return sql`(${articles.status} = 'published' and ${articles.deleted_at} is null)`;
}

/**
 * Public events: published and not in the Trash, as articles (same predicate as `events_public_idx`, and as the
 * event_registration_take function's, migrations 0025 and 0027: change them together).
 */
export function eventIsPublic(): SQL {
  return sql`(${events.status} = 'published' and ${events.deleted_at} is null)`;
}

/** Public team members. */
export function teamMemberIsPublic(): SQL {
  return sql`(${team.visible} = true and ${team.deleted_at} is null)`;
}

/**
 * The same two conditions for a query that names the tables by an alias
 * (the site search: `articles a`, `team t`). Kept beside the ones above.
 */
export function articleIsPublicAs(alias: "a"): SQL {
  return sql.raw(`(${alias}.status = 'published' and ${alias}.deleted_at is null)`);
}

export function teamMemberIsPublicAs(alias: "t"): SQL {
  return sql.raw(`(${alias}.visible = true and ${alias}.deleted_at is null)`);
}

/** Not in the Trash (dashboard lists and edit screens). */
export function articleNotTrashed(): SQL {
  return sql`${articles.deleted_at} is null`;
}

export function teamMemberNotTrashed(): SQL {
  return sql`${team.deleted_at} is null`;
}

/** The same rules for a row already read (previews, tests). */
export function isArticleRowPublic(row: { status: string; deleted_at: Date | null }): boolean {
  return row.status === "published" && row.deleted_at === null;
}

export function isTeamRowPublic(row: { visible: boolean; deleted_at: Date | null }): boolean {
  return row.visible && row.deleted_at === null;
}

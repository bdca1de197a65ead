/**
 * Slugs of articles, team members and events (one helper for all): a free slug for
 * a title or name, and a retry when two saves race for the same one.
 */
import { ilike, or, eq } from "drizzle-orm";
import { uniqueSlug } from "~/lib/slug";
import type { Db } from "./client";
import { isUniqueViolation } from "./errors";
import { articles, events, team } from "./schema";

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `base`, or `base-2`, `base-3`… : the first slug no other row of the table holds (`exceptId`: the row being saved). */
export async function freeSlug(
  tx: Db,
  table: typeof articles | typeof team | typeof events,
  base: string,
  exceptId?: number,
): Promise<string> {
  const rows = await tx
    .select({ id: table.id, slug: table.slug })
    .from(table)
    .where(or(eq(table.slug, base), ilike(table.slug, `${escapeLike(base)}-%`)));
  return uniqueSlug(base, new Set(rows.filter((r) => r.id !== exceptId).map((r) => r.slug)));
}

/** Two saves racing for one slug: the unique index refuses one; try once more. */
export async function withSlugRetry<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) return work();
    throw error;
  }
}

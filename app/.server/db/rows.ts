import { getTableColumns, sql, type InferSelectModel, type SQL, type Table } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { clampPage, pageCount, pageOffset } from "~/lib/pagination";
import { db } from "./client";

/**
 * The rows of a raw `db().execute(sql`…`)` result. Drizzle hands back its
 * driver's own result: `{ rows }` from node-postgres and from PGlite alike;
 * an array is taken as the rows themselves.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] } | null)?.rows ?? [];
}

/**
 * A table's row from its JSON (`to_jsonb(r)` in SQL, from a function that
 * returns the row it wrote): each column read as Drizzle reads it from the
 * driver, so timestamps are Dates and bigints numbers, as a `select()` gives.
 */
export function rowFromJson<T extends Table>(table: T, json: unknown): InferSelectModel<T> {
  const fields = (typeof json === "string" ? JSON.parse(json) : json) as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = fields[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}

/** How many rows of `table` meet `where` (all of them without it). */
export async function countRows(table: PgTable, where?: SQL): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return Number(row?.n ?? 0);
}

/**
 * One page of a list paged in the database: the rows of `table` that meet `where` are counted, the asked
 * page is clamped into range (a page past the end is the last), and `read` takes that page's rows
 * (its `limit` and `offset`) in the list's order.
 */
export async function readPage<T>(
  table: PgTable,
  where: SQL | undefined,
  page: number,
  pageSize: number,
  read: (limit: number, offset: number) => PromiseLike<T[]>,
): Promise<{ rows: T[]; total: number; page: number; pageCount: number }> {
  const total = await countRows(table, where);
  const current = clampPage(page, total, pageSize);
  const rows = await read(pageSize, pageOffset(current, pageSize));
  return { rows, total, page: current, pageCount: pageCount(total, pageSize) };
}

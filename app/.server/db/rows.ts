/**
 * The rows of a raw `db().execute(sql`…`)` result. Drizzle hands back its
 * driver's own result: `{ rows }` from node-postgres and from PGlite alike;
 * an array is taken as the rows themselves.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] } | null)?.rows ?? [];
}

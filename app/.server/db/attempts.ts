/**
 * The database rate limiters' one counter: sign-in attempts (`login_attempts`,
 * login-limits.ts) and the enquiry form's sendings (`enquiry_attempts`,
 * enquiries.ts) are rows with a time, counted over a window and pruned after
 * a day. Kept in the database, a limit holds across restarts and across
 * several processes on one PostgreSQL.
 */
import { and, count, gte, lt, type SQL } from "drizzle-orm";
import { db, type Db } from "./client";
import { enquiryAttempts, loginAttempts } from "./schema";

type AttemptTable = typeof loginAttempts | typeof enquiryAttempts;

/** How many of the table's attempts that match `where` were made at or after `since`. */
export async function attemptsSince(table: AttemptTable, where: SQL | undefined, since: Date, tx: Db = db()): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(table)
    .where(and(where, gte(table.at, since)));
  return Number(row?.n ?? 0);
}

/** Removes the table's attempts made before `before`. */
export async function pruneAttempts(table: AttemptTable, before: Date, tx: Db = db()): Promise<void> {
  await tx.delete(table).where(lt(table.at, before));
}

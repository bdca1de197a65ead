/**
 * The one connection to the database. No DATABASE_URL: PGlite persisted in
 * DATA_DIR (with a lock file so a second process is refused). DATABASE_URL:
 * a `pg` pool. Migrations run on open, idempotently, on either.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema";
import { acquireDirLock, type DirLock } from "./lock";
import { DatabaseStartError } from "./errors";
import { getEnv, type Env } from "../env";
import { currentServices, processServices } from "../services";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Answers when the database does; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The pg pool (PostgreSQL only), for LISTEN/NOTIFY and admin queries. */
  pool?: pg.Pool;
  /** The PGlite instance (embedded only). */
  pglite?: PGlite;
};

export { DatabaseStartError } from "./errors";

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

/**
 * Extensions PGlite loads (PostgreSQL has them built in): pg_trgm for the
 * site search's typo tolerance (migration 0007, decision 0013). Every
 * PGlite the app or the tests open goes through these options.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

export type OpenOptions = { url: string } | { dataDir: string } | { memory: true; loadDataDir?: Blob | File };

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ("url" in options) return openPostgres(options.url);
  if ("dataDir" in options) return openPglite(options.dataDir);
  return openPgliteMemory(options.loadDataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  const dir = path.join(dataDir, "pgdata");
  fs.mkdirSync(dataDir, { recursive: true });
  const lock: DirLock = acquireDirLock(dataDir);
  let client: PGlite;
  try {
    client = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
  } catch (error) {
    lock.release();
    throw new DatabaseStartError(
      `Cannot open the embedded database in ${dir}: ${(error as Error).message}. Move the folder aside to start fresh.`,
    );
  }
  return migratedPglite(client, lock);
}

async function openPgliteMemory(loadDataDir?: Blob | File): Promise<Database> {
  return migratedPglite(await PGlite.create({ extensions: PGLITE_EXTENSIONS, ...(loadDataDir ? { loadDataDir } : {}) }));
}

/** Migrates an open PGlite and wraps it; on failure closes it (and frees the folder's lock). */
async function migratedPglite(client: PGlite, lock?: DirLock): Promise<Database> {
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await client.close();
    lock?.release();
    throw error;
  }
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: "pglite",
    pglite: client,
    async ping() {
      await client.query("select 1");
    },
    async close() {
      if (!client.closed) await client.close();
      lock?.release();
    },
  };
}

/** A short, secret-free description of where DATABASE_URL points. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "(unparseable URL)";
  }
}

async function openPostgres(url: string): Promise<Database> {
  try {
    new URL(url);
  } catch {
    throw new DatabaseStartError("DATABASE_URL is not a valid URL (expected postgres://user:password@host:5432/database)");
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on("error", (error) => {
    console.error(JSON.stringify({ level: "error", msg: "database connection lost", error: error.message }));
  });
  // A client checked out of the pool (a transaction, pg-boss's multi-statement SQL) that loses its connection emits
  // "error" on itself, and the pool listens only to idle ones: without a listener of its own the process would
  // crash on a database outage. The statement in flight fails with the same error, which its caller handles.
  pool.on("connect", (client) => client.on("error", () => {}));
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    const e = error as NodeJS.ErrnoException;
    throw new DatabaseStartError(
      `Cannot connect to the PostgreSQL server of DATABASE_URL (${describeUrl(url)}): ${e.code ?? ""} ${e.message}`.replace(/\s+/g, " "),
    );
  }
  try {
    // One migrator at a time across processes.
    await client.query("select pg_advisory_lock(72707001)");
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    client.release();
    await pool.end().catch(() => {});
    throw new DatabaseStartError(`Migrating the database of DATABASE_URL (${describeUrl(url)}) failed: ${(error as Error).message}`);
  } finally {
    await client.query("select pg_advisory_unlock(72707001)").catch(() => {});
  }
  client.release();
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    pool,
    async ping() {
      await pool.query("select 1");
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

// ---- the process-wide database ----

// Kept in the services (services.ts): the query modules read the current ones, a request's (its React Router
// context's) inside a request and the process's outside one. Start-up and the tests set the process's.

export function setDatabase(database: Database | undefined) {
  processServices().database = database;
}

/** The current services' database: the request's inside one (services.ts, `currentServices`), else the process's. */
export function getDatabase(): Database {
  const database = currentServices().database;
  if (!database) throw new Error("The database is not open yet (call openDatabase at start-up).");
  return database;
}

export function db(): Db {
  return getDatabase().db;
}

/** Opens the database the environment names (DATABASE_URL, or PGlite in DATA_DIR) and makes it the process's. */
export async function openConfiguredDatabase(env: Env = getEnv()): Promise<Database> {
  const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.dataDir });
  setDatabase(database);
  return database;
}

/** Closes the process's database (the embedded one writes its files), if one is open. */
export async function closeDatabase(): Promise<void> {
  const database = processServices().database;
  if (!database) return;
  setDatabase(undefined);
  await database.close();
}

/** Whether the database answers a ping within `timeoutMs` (readiness, and telling an outage from a page's own error). */
export async function databaseAnswers(timeoutMs = 1000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      getDatabase().ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

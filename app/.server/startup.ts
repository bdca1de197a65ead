/**
 * Start-up and shutdown of the server's services: the database (migrated),
 * demo content for an empty embedded database, and the staff account from
 * ADMIN_EMAIL / ADMIN_PASSWORD.
 */
import { createStaffAccount } from "./auth";
import { startContentSync, type ContentSync } from "./content-sync";
import { getDatabase, openDatabase, setDatabase, type Database } from "./db/client";
import { isContentEmpty, seedDemoContent } from "./db/seed";
import { getEnv, type Env } from "./env";
import { log } from "./log";
import { createPictureSweeper, SWEEP_INTERVAL_MS, type PictureSweeper } from "./picture-sweep";

export async function openConfiguredDatabase(env: Env = getEnv()): Promise<Database> {
  const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.dataDir });
  setDatabase(database);
  return database;
}

export async function ensureAdminFromEnv(env: Env = getEnv()): Promise<void> {
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const created = await createStaffAccount(env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
    if (created) log("info", "staff account created", { email: env.ADMIN_EMAIL });
  } else if (env.ADMIN_EMAIL || env.ADMIN_PASSWORD) {
    log("warn", "set both ADMIN_EMAIL and ADMIN_PASSWORD (12-128 characters) to create the staff account at start-up");
  } else {
    log("info", "no staff account configured: set ADMIN_EMAIL and ADMIN_PASSWORD, or run `npm run admin:create -- you@example.com`");
  }
}

export async function startServices(env: Env = getEnv()): Promise<Database> {
  const started = Date.now();
  const database = await openConfiguredDatabase(env);
  if (database.kind === "pglite" && env.SEED_DEMO && (await isContentEmpty())) {
    await seedDemoContent((message) => log("info", message));
  }
  await ensureAdminFromEnv(env);
  // Pictures left without a row by a crash during a save (see picture-sweep.ts).
  if (database.kind === "pglite") {
    await createPictureSweeper()
      .sweep(true)
      .catch((error: unknown) => log("warn", "picture sweep failed", { error: (error as Error).message }));
  } else {
    holder.__pictureSweeper = createPictureSweeper({ intervalMs: SWEEP_INTERVAL_MS });
    holder.__pictureSweeper.sweep().catch((error: unknown) => log("warn", "picture sweep failed", { error: (error as Error).message }));
  }
  holder.__contentSync = await startContentSync(database);
  log("info", "services ready", { database: database.kind, ms: Date.now() - started });
  return database;
}

const holder = globalThis as unknown as { __contentSync?: ContentSync; __pictureSweeper?: PictureSweeper };

export async function stopServices(): Promise<void> {
  holder.__pictureSweeper?.stop();
  holder.__pictureSweeper = undefined;
  await holder.__contentSync?.stop();
  holder.__contentSync = undefined;
  let database: Database | undefined;
  try {
    database = getDatabase();
  } catch {
    return;
  }
  setDatabase(undefined);
  await database.close();
}

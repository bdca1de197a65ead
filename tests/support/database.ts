/**
 * A fresh database per test file: PGlite in memory with the migrations
 * applied, or, when TEST_DATABASE_URL is set, a new PostgreSQL database
 * created for the file and dropped after it.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, setDatabase, type Database } from "~/.server/db/client";
import { setEnvForTests } from "~/.server/env";
import { setStorage, diskStorage } from "~/.server/storage/storage";
import { systemActor } from "~/.server/db/audit";

export const onPostgres = !!process.env.TEST_DATABASE_URL;

export async function createTestDatabase(): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // The migrated database dumped once by tests/support/pglite-template.ts (when the run has one).
    const template = process.env.PGLITE_TEMPLATE;
    const loadDataDir = template ? new Blob([fs.readFileSync(template)]) : undefined;
    const database = await openDatabase({ memory: true, loadDataDir });
    return { database, drop: () => database.close() };
  }
  const name = `firm_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/** Registers hooks that open a fresh database (and a temporary DATA_DIR) for this file. */
export function setUpTestDatabase(): { readonly database: Database; readonly dataDir: string } {
  const state = {} as { database: Database; dataDir: string; drop(): Promise<void> };
  beforeAll(async () => {
    state.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-test-"));
    setEnvForTests({ DATA_DIR: state.dataDir, DATABASE_URL: "", NODE_ENV: "test", LOG_LEVEL: "silent" });
    setStorage(diskStorage(path.join(state.dataDir, "uploads")));
    const { database, drop } = await createTestDatabase();
    state.database = database;
    state.drop = drop;
    setDatabase(database);
  });
  afterAll(async () => {
    setDatabase(undefined);
    setStorage(undefined);
    await state.drop?.();
    if (state.dataDir) fs.rmSync(state.dataDir, { recursive: true, force: true });
  });
  return state;
}

/** Who the audit trail names for writes a test makes directly through the query modules. */
export const TEST_ACTOR = systemActor("test");

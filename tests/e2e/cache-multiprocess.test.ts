/**
 * Several server processes on one PostgreSQL stay fresh: each caches public
 * pages, and a save in another process clears them (LISTEN/NOTIFY) and renders
 * again the pages visitors used most recently.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase, type Database } from "~/.server/db/client";
import { createTeamMember } from "~/.server/db/team";
import { startContentSync, type ContentSync } from "~/.server/db/content-sync";
import { startServer, type RunningServer } from "./support";
import { TEST_ACTOR } from "../support/database";
import { memberInput } from "../support/team";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `firm_e2e_${randomBytes(4).toString("hex")}`;
const url = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
})();

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A cyber Associate with no bio, added while the servers run. */
const associate = (full_name: string, email: string, extension: number) =>
  memberInput(full_name, { title: "Associate", email, extension, desc: "" });

let available = true;
let servers: RunningServer[] = [];
let database: Database | undefined;
let sync: ContentSync | undefined;

beforeAll(async () => {
  try {
    await admin(`create database ${name}`);
  } catch {
    available = false;
    return;
  }
  servers = await Promise.all([0, 1].map(() => startServer({ env: { DATABASE_URL: url } })));
  database = await openDatabase({ url });
  setDatabase(database);
  sync = await startContentSync(database);
});

afterAll(async () => {
  await sync?.stop();
  setDatabase(undefined);
  await database?.close();
  await Promise.all(servers.map((s) => s.stop()));
  for (const s of servers) fs.rmSync(s.dataDir, { recursive: true, force: true });
  if (available) await admin(`drop database if exists ${name} with (force)`);
});

describe("page cache across processes", () => {
  it("a save in one process clears the cached pages of the others", async (ctx) => {
    if (!available) ctx.skip();
    for (const s of servers) {
      await fetch(`${s.url}/sitemap.xml`);
      const again = await fetch(`${s.url}/sitemap.xml`);
      expect(again.headers.get("x-cache")).toBe("HIT");
      expect(await again.text()).not.toContain("Notified-Person");
    }
    await createTeamMember(associate("Notified Person", "np@example.com", 150), TEST_ACTOR);
    for (const s of servers) {
      await expect
        .poll(async () => (await (await fetch(`${s.url}/sitemap.xml`)).text()).includes("/lawyer/Notified-Person"), { timeout: 3000 })
        .toBe(true);
    }
  });

  it("after a save, the pages visitors used are rendered again at once: the next visitor gets the new page from memory", async (ctx) => {
    if (!available) ctx.skip();
    for (const s of servers) {
      for (const path of ["/team", "/insights"]) await fetch(`${s.url}${path}`);
      expect((await fetch(`${s.url}/team`)).headers.get("x-cache")).toBe("HIT");
    }
    await createTeamMember(associate("Warmed Person", "wp@example.com", 151), TEST_ACTOR);
    // No request meanwhile: the saving process and the notified one render the pages themselves.
    await new Promise((r) => setTimeout(r, 2000));
    for (const s of servers) {
      const first = await fetch(`${s.url}/team`);
      expect(first.headers.get("x-cache")).toBe("HIT");
      expect(await first.text()).toContain("Warmed Person");
    }
  });
});

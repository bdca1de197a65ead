/**
 * Crash safety: `kill -9` of the built server in the middle of a stream of
 * saves, then a restart on the same DATA_DIR (and, for PostgreSQL, the same
 * database):
 * - every save that was acknowledged (a 302 after the POST) is there: each
 *   created team member answers at /lawyer/<slug> and is in the sitemap; the
 *   page header shows the last acknowledged text (or the one in flight);
 * - nothing is half-written: a member created with a picture has its row
 *   and its picture files (original and widths); no row points at a missing
 *   picture; no picture is left without a row (compared after stopping the
 *   server, with the database opened directly).
 * Three rounds on PGlite (embedded, DATA_DIR/pgdata) and two on PostgreSQL
 * (a database created on postgres://postgres@127.0.0.1:5432/postgres — or
 * CRASH_PG_URL — and dropped after; skipped with the reason when none answers).
 *
 * Run: BUILD_DIR=build-crash npx react-router build &&
 *      BUILD_DIR=build-crash npx vitest run --config vitest.e2e.config.ts tests/e2e/reliability-crash.test.ts
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase } from "~/.server/db/client";
import { createPictureSweeper } from "~/.server/pictures/picture-sweep";
import { diskStorage, setStorage } from "~/.server/storage/storage";
import { lawyerSlug } from "~/lib/slug";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from "./support";
import { BUILD_DIR, requireBuild, sleep } from "./reliability-support";

const PG_ADMIN_URL = process.env.CRASH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function postgresAnswers(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return `no PostgreSQL at ${new URL(PG_ADMIN_URL).host}: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}
const pgUnavailable = await postgresAnswers();

let JPEG: Buffer;
beforeAll(async () => {
  requireBuild();
  JPEG = await sharp({ create: { width: 400, height: 500, channels: 3, background: "#345" } })
    .jpeg({ quality: 90 })
    .toBuffer();
});

async function signInOverHttp(url: string): Promise<string> {
  const res = await fetch(`${url}/admin`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, redirectTo: "/dashboard" }),
  });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`sign-in answered ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie) throw new Error("sign-in set no cookie");
  return cookie;
}

type Created = { name: string; slug: string; withPhoto: boolean };
type Round = {
  roundNo: number;
  created: Created[];
  createsSent: number;
  headerAcked: number;
  headerSent: number;
  unexpected: string[];
  killedAfterMs: number;
};

/**
 * Two create streams and one header-update stream against `server`; SIGKILL once
 * `killAfter` members are acknowledged. Returns what was acknowledged.
 */
async function saveStreamAndKill(server: RunningServer, cookie: string, roundNo: number, killAfter: number): Promise<Round> {
  const url = server.url;
  const round: Round = { roundNo, created: [], createsSent: 0, headerAcked: -1, headerSent: -1, unexpected: [], killedAfterMs: 0 };
  let dead = false;
  const started = Date.now();
  let counter = 0;

  const createWorker = async () => {
    while (!dead) {
      const i = counter++;
      const name = `Crash Round${roundNo} Member${String(i).padStart(3, "0")}`;
      const withPhoto = i % 3 !== 2;
      const fd = new FormData();
      const fields = {
        full_name: name,
        title: "Associate",
        email: `crash${roundNo}-${i}@example.com`,
        extension: String(100 + i),
        mobile: "",
        desc: `Created in crash round ${roundNo}.`,
      };
      for (const [k, v] of Object.entries(fields)) fd.append(k, v);
      fd.append("AOP", "cyber");
      if (withPhoto) fd.append("photo", new Blob([new Uint8Array(JPEG)], { type: "image/jpeg" }), `m${i}.jpg`);
      round.createsSent++;
      try {
        const res = await fetch(`${url}/dashboard/lawyers/new`, {
          method: "POST",
          body: fd,
          redirect: "manual",
          headers: { cookie, origin: url },
        });
        await res.arrayBuffer();
        if (res.status === 302 && res.headers.get("location") === "/dashboard/lawyers/new")
          round.created.push({ name, slug: lawyerSlug(name), withPhoto });
        else round.unexpected.push(`create ${i}: ${res.status} ${res.headers.get("location")}`);
      } catch {
        return; // the server is gone
      }
    }
  };
  const headerWorker = async () => {
    for (let v = 0; !dead; v++) {
      round.headerSent = v;
      try {
        const res = await fetch(`${url}/dashboard/headers/edit`, {
          method: "POST",
          redirect: "manual",
          headers: { cookie, origin: url, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ name: "team", header_text: `Crash round ${roundNo} header version ${v}.` }),
        });
        await res.arrayBuffer();
        if (res.status === 302) round.headerAcked = v;
        else round.unexpected.push(`header ${v}: ${res.status}`);
      } catch {
        return;
      }
    }
  };
  const killer = async () => {
    const deadline = Date.now() + 60_000;
    while (round.created.length < killAfter && Date.now() < deadline) await sleep(5);
    // Mid-stream: requests of all three streams are in flight now.
    server.process.kill("SIGKILL");
    dead = true;
    round.killedAfterMs = Date.now() - started;
  };
  await Promise.all([createWorker(), createWorker(), headerWorker(), killer()]);
  await new Promise<void>((resolve) =>
    server.process.exitCode !== null || server.process.signalCode ? resolve() : server.process.once("exit", () => resolve()),
  );
  return round;
}

type StoredState = { rows: { slug: string; full_name: string; img: string }[]; files: string[]; header: string; tmpFiles: string[] };

async function readStored(options: { dataDir: string } | { url: string }, dataDir: string): Promise<StoredState> {
  const database = await openDatabase(options);
  try {
    const q = async <T>(text: string) => {
      const r = await database.db.execute(sql.raw(text));
      return (r as { rows?: T[] }).rows ?? (r as T[]);
    };
    const rows = await q<{ slug: string; full_name: string; img: string }>(`select slug, full_name, img from team order by id`);
    const [h] = await q<{ header_text: string }>(`select header_text from headers where name = 'team'`);
    const folder = path.join(dataDir, "uploads", "team");
    const all = fs.existsSync(folder) ? fs.readdirSync(folder) : [];
    return {
      rows,
      files: all.filter((f) => !f.endsWith(".tmp")),
      tmpFiles: all.filter((f) => f.endsWith(".tmp")),
      header: h?.header_text ?? "",
    };
  } finally {
    await database.close();
  }
}

/** Every acknowledged save is served after the restart. */
async function checkServed(url: string, round: Round) {
  const sitemap = await (await fetch(`${url}/sitemap.xml`)).text();
  for (const m of round.created) {
    const res = await fetch(`${url}/lawyer/${encodeURIComponent(m.slug)}`);
    const html = await res.text();
    expect(res.status, `acknowledged member ${m.name} after the restart`).toBe(200);
    expect(html).toContain(m.name);
    expect(sitemap, `${m.slug} in the sitemap`).toContain(`/lawyer/${encodeURIComponent(m.slug)}<`);
  }
  if (round.headerAcked >= 0) {
    const page = await (await fetch(`${url}/team`)).text();
    const shown = /Crash round (\d+) header version (\d+)\./.exec(page);
    expect(shown, "the team page header after the restart").not.toBeNull();
    const [, r, v] = shown!;
    expect(Number(r)).toBe(round.roundNo);
    // The last acknowledged text, or the one in flight when the server died.
    expect(Number(v)).toBeGreaterThanOrEqual(round.headerAcked);
    expect(Number(v)).toBeLessThanOrEqual(round.headerSent);
  }
}

/** Rows and pictures agree: acknowledged rows exist, pictures complete, no orphans. */
function checkStored(state: StoredState, acknowledged: Created[]): { orphans: string[]; extraRows: string[] } {
  const bySlug = new Map(state.rows.map((r) => [r.slug, r]));
  for (const m of acknowledged) {
    const row = bySlug.get(m.slug);
    expect(row, `row of acknowledged ${m.name}`).toBeDefined();
    if (m.withPhoto) expect(row!.img, `${m.name} was saved with a picture`).toMatch(/^[a-z0-9-]+\.jpg$/);
  }
  const files = new Set(state.files);
  const owners = new Set<string>();
  for (const r of state.rows) {
    if (!r.img || r.img === "none") continue;
    const stem = r.img.replace(/\.\w+$/, "");
    owners.add(stem);
    expect(files.has(r.img), `row ${r.slug} points at a missing picture ${r.img}`).toBe(true);
    // The widths (…-320.webp etc.) are written with the original: at least one must be there.
    expect(
      state.files.some((f) => f.startsWith(`${stem}-`) && f.endsWith(".webp")),
      `widths of ${r.img}`,
    ).toBe(true);
  }
  const orphans = state.files.filter((f) => !owners.has(f.replace(/(-\d{2,5})?\.\w+$/, "")));
  const ackSlugs = new Set(acknowledged.map((m) => m.slug));
  const extraRows = state.rows.filter((r) => r.full_name.startsWith("Crash ") && !ackSlugs.has(r.slug)).map((r) => r.slug);
  return { orphans, extraRows };
}

function runCrashRounds(
  kind: "pglite" | "postgres",
  rounds: number,
  getOptions: () => { env: Record<string, string>; open: { dataDir: string } | { url: string }; dataDir: string },
) {
  it(`${kind}: ${rounds} rounds of kill -9 during saves lose no acknowledged save and leave nothing half-written`, async () => {
    const { env, open, dataDir } = getOptions();
    const allAcked: Created[] = [];
    const report: string[] = [];
    for (let r = 1; r <= rounds; r++) {
      const server = await startServer({ dataDir, env: { BUILD_DIR, SEED_DEMO: "false", LOG_LEVEL: "error", ...env } });
      const cookie = await signInOverHttp(server.url);
      const killAfter = 6 + Math.floor(Math.random() * 10);
      const round = await saveStreamAndKill(server, cookie, r, killAfter);
      expect(round.unexpected, "every save before the kill was acknowledged").toEqual([]);
      allAcked.push(...round.created);

      const restarted = await startServer({ dataDir, env: { BUILD_DIR, SEED_DEMO: "false", LOG_LEVEL: "error", ...env } });
      try {
        await checkServed(restarted.url, round);
      } finally {
        expect(await restarted.stop("SIGTERM")).toBe(0);
      }
      const state = await readStored(open, dataDir);
      const { orphans, extraRows } = checkStored(state, allAcked);
      const line =
        `round ${r}: killed after ${round.killedAfterMs} ms; creates sent ${round.createsSent}, acknowledged ${round.created.length} ` +
        `(in flight, committed but not acknowledged: ${extraRows.length}); header versions sent ${round.headerSent + 1}, last acknowledged ${round.headerAcked}, ` +
        `stored "${state.header.replace(/^Crash round \d+ header version /, "v")}"; rows ${state.rows.length}, picture files ${state.files.length}, orphan files ${orphans.length}${orphans.length ? ` (${orphans.slice(0, 4).join(", ")})` : ""}, .tmp files ${state.tmpFiles.length}`;
      report.push(line);
      console.log(`[crash ${kind}] ${line}`);
      if (kind === "pglite") {
        // The restart removed them (start-up sweep: one process holds the embedded database).
        expect(orphans, `pictures without a row after round ${r}`).toEqual([]);
      } else {
        // PostgreSQL: other processes may be saving, so the sweep waits one interval. Only the
        // creates in flight at the kill (two streams) can have left pictures; two passes remove them.
        expect(new Set(orphans.map((f) => f.slice(0, 36))).size).toBeLessThanOrEqual(2);
        const database = await openDatabase(open);
        setDatabase(database);
        setStorage(diskStorage(path.join(dataDir, "uploads")));
        try {
          const sweeper = createPictureSweeper();
          await sweeper.sweep();
          const { removed } = await sweeper.sweep();
          expect(removed.map((k) => k.slice("team/".length)).sort()).toEqual([...orphans].sort());
        } finally {
          setDatabase(undefined);
          setStorage(undefined);
          await database.close();
        }
        expect(checkStored(await readStored(open, dataDir), allAcked).orphans).toEqual([]);
      }
    }
    console.log(`[crash ${kind}] ${allAcked.length} acknowledged members over ${rounds} rounds, all present`);
  }, 600_000);
}

// The two databases' rounds run at once (each suite `concurrent`): each has its own server, data folder and
// database, and most of a round is one server process starting (migrations, the build's first import) on one
// core, so one after the other they left the other core idle for most of the file.
describe("crash safety on PGlite (embedded)", { concurrent: true }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-crash-pglite-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  runCrashRounds("pglite", Number(process.env.CRASH_ROUNDS ?? 3), () => ({ env: {}, open: { dataDir }, dataDir }));
});

const pgSuite = `crash safety on PostgreSQL${pgUnavailable ? ` (skipped: ${pgUnavailable})` : ""}`;
describe.skipIf(!!pgUnavailable)(pgSuite, { concurrent: true }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-crash-pg-"));
  const name = `firm_crash_${Date.now()}_${process.pid}`;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  runCrashRounds("postgres", Number(process.env.CRASH_ROUNDS_PG ?? 2), () => ({
    env: { DATABASE_URL: url.toString() },
    open: { url: url.toString() },
    dataDir,
  }));
});

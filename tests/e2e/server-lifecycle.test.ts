/**
 * The promises of the foundation, on the built production server:
 * first start seeds demo content; a second start reuses the data without
 * reseeding and loses nothing written before the stop; a second process is
 * refused the embedded database; SIGTERM exits 0 promptly.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase } from "~/.server/db/client";
import { deleteArticle, getArticleBySlug } from "~/.server/db/articles";
import { createTeamMember } from "~/.server/db/team";
import { startServer, type RunningServer } from "./support";
import { TEST_ACTOR } from "../support/database";

let server: RunningServer | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("server lifecycle on the embedded database", () => {
  it("seeds on first start, refuses a second process, stops cleanly, and keeps everything across restarts", async () => {
    server = await startServer({ firstStart: true });
    dataDir = server.dataDir;
    const first = await fetch(`${server.url}/`);
    expect(first.status).toBe(200);

    // A seed script while the server runs is refused with a clear message.
    const seed = spawnSync(process.execPath, ["--import", "tsx", "scripts/seed.ts"], {
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "production" },
      encoding: "utf8",
    });
    expect(seed.status).toBe(1);
    expect(seed.stderr).toMatch(/in use by another process/);

    const started = Date.now();
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);

    // Write while the server is stopped: add a member, delete a demo article.
    const database = await openDatabase({ dataDir });
    setDatabase(database);
    await createTeamMember(
      {
        full_name: "Persisted Person",
        title: "Associate",
        email: "pp@example.com",
        extension: 199,
        mobile: "",
        desc: "Kept across restarts.",
        img: "",
        AOP: ["cyber"],
        area_details: [],
        staff: [],
      },
      TEST_ACTOR,
    );
    const demo = await getArticleBySlug("Fraud-Indicators-in-Staged-Collision-Claims");
    expect(demo).toBeDefined();
    await deleteArticle(demo!.id, TEST_ACTOR);
    setDatabase(undefined);
    await database.close();

    server = await startServer({ dataDir });
    const lawyer = await fetch(`${server.url}/lawyer/Persisted-Person`);
    expect(lawyer.status).toBe(200);
    expect(await lawyer.text()).toContain("Persisted Person");
    // Not reseeded: the deleted demo article stays deleted.
    expect((await fetch(`${server.url}/post/Fraud-Indicators-in-Staged-Collision-Claims`)).status).toBe(404);
    expect(await server.stop("SIGINT")).toBe(0);
    server = undefined;
  });
});

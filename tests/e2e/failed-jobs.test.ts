/**
 * Failed jobs (owners; decision 0026), in Chromium on a production server
 * over PostgreSQL: a job of the job queue that fails its last attempt is
 * listed with its error, the screen passes the three accessibility checkers
 * at 1280 and 390 px without sideways scrolling, and "Try again" sends it to
 * its queue again and takes it off the list.
 *
 * The failing job is made through pg-boss itself, from this file, on a queue
 * of its own (`e2e-check`, dead-lettered like the site's): one attempt, run
 * and failed, so pg-boss copies it to the dead-letter queue as it does for
 * any job of the site on its last attempt. A site job (an e-mail's) is named
 * in words, with which one it was.
 */
import { randomBytes } from "node:crypto";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll } from "vitest";
import { runA11yCheckers } from "./a11y-checkers";
import { ADMIN_DATABASE_URL, adminQuery, postgresAvailable } from "../support/cluster";
import { describe, expect, it, suiteServer } from "./fixture";

const pgReason = (await postgresAvailable()) ? null : "no PostgreSQL server (set TEST_DATABASE_URL)";
if (pgReason && process.env.CI) throw new Error(pgReason);

describe.skipIf(pgReason !== null)("Failed jobs on the dashboard", () => {
  const name = `firm_failedjobs_${randomBytes(4).toString("hex")}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  let boss: PgBoss;

  // Registered before the server's hooks, so it runs after the server has stopped (after-hooks run in reverse).
  afterAll(async () => {
    await adminQuery(`drop database if exists ${name} with (force)`).catch(() => {});
  });
  /**
   * The suite's own server, on a database of its own made before it starts, where an e-mail's job (`mail-send`,
   * for an Outbox message that is gone) has already failed its last try: made before the server runs, so no
   * worker of the server's takes it first.
   */
  const server = suiteServer(async () => {
    await adminQuery(`create database ${name}`);
    const early = new PgBoss({ connectionString: url.toString(), schema: "pgboss", supervise: false, schedule: false });
    early.on("error", () => {});
    await early.start();
    await early.createQueue("dead-letter");
    await early.createQueue("mail-send", { deadLetter: "dead-letter", retryLimit: 0 });
    await early.send("mail-send", { id: 424242 });
    const [job] = await early.fetch("mail-send");
    await early.fail("mail-send", job.id, { message: "The SMTP server refused the message (451 try again later)." });
    await early.stop({ graceful: false });
    return { quiet: true, env: { DATABASE_URL: url.toString(), AUTH_SECRET: "b".repeat(64) } };
  });

  beforeAll(async () => {
    boss = new PgBoss({ connectionString: url.toString(), schema: "pgboss", supervise: false, schedule: false });
    boss.on("error", () => {});
    await boss.start();
    await boss.createQueue("e2e-check", { deadLetter: "dead-letter", retryLimit: 0 });
    await boss.send("e2e-check", { what: "a test job" });
    const [job] = await boss.fetch("e2e-check");
    await boss.fail("e2e-check", job.id, { message: "The bucket did not answer (ECONNREFUSED 127.0.0.1:9000)." });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false });
  });

  it("lists the failed job with its error, passes the checkers at 1280 and 390 px, and Try again sends it again", async ({ staffPage }) => {
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } }, "owner", server.url);
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole("link", { name: "Failed jobs" }).first().click();
    await page.waitForURL(/\/dashboard\/failed-jobs$/);
    const row = page.getByRole("row", { name: /e2e-check/ });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("The bucket did not answer (ECONNREFUSED 127.0.0.1:9000).");
    expect(await row.textContent()).toContain("1 try");
    // A site job is named in words, with which one it was (here an e-mail whose Outbox message is gone).
    const mailRow = page.getByRole("row", { name: /^E-mail Outbox message 424242, no longer in the Outbox/ });
    expect(await mailRow.count()).toBe(1);
    expect(await mailRow.textContent()).toContain("The SMTP server refused the message (451 try again later).");
    expect(await runA11yCheckers(page)).toEqual([]);
    // The dashboard's one row of screens, this one among them, still fits at 1280 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: "/tmp/failed-jobs-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await runA11yCheckers(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/failed-jobs-390.png", fullPage: true });

    await page.getByRole("button", { name: /^Try again: e2e-check/ }).click();
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "The job has been sent again" }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByRole("row", { name: /e2e-check/ }).count()).toBe(0);
    // Back in its queue as a fresh job (no worker runs `e2e-check`: it waits there).
    const waiting = await boss.findJobs("e2e-check", { queued: true });
    expect(waiting.map((j) => j.data)).toEqual([{ what: "a test job" }]);
    // Recorded in Activity, with who pressed it.
    await page.goto(`${server.url}/dashboard/activity`);
    await expect
      .poll(
        () =>
          page
            .getByTestId("activity-entry")
            .filter({ hasText: /tried again[\s\S]*Timed job[\s\S]*e2e-check/ })
            .count(),
        { timeout: 15_000 },
      )
      .toBe(1);

    // The e-mail's job, tried again, runs on the server's own queue (its message is gone: nothing to send) and leaves the list.
    await page.goto(`${server.url}/dashboard/failed-jobs`);
    await page.getByRole("button", { name: /^Try again: E-mail \(Outbox message 424242, no longer in the Outbox\)/ }).click();
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "The job has been sent again" }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByText("No failed jobs.").count()).toBe(1);
  }, 120_000);
});

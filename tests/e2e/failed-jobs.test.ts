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
 *
 * A mailing's delivery to one subscriber that failed its last try (the SMTP
 * server answering 451) is on the list in words, the article's title and the
 * address; an owner presses Try again and the subscriber receives the e-mail,
 * once. Its set-up is code (the subscriber, the article and its mailing; the
 * delivery's job pushed to its last try); the recovery is pressed in Chromium.
 */
import { randomBytes } from "node:crypto";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll } from "vitest";
import { TOPIC_LABELS } from "~/lib/forms/subscribe";
import { runA11yCheckers } from "./a11y-checkers";
import { ADMIN_DATABASE_URL, adminQuery, postgresAvailable } from "../support/cluster";
import { mailingReady } from "../support/mailing";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import { describe, expect, it, suiteServer } from "./fixture";

const pgReason = (await postgresAvailable()) ? null : "no PostgreSQL server (set TEST_DATABASE_URL)";
if (pgReason && process.env.CI) throw new Error(pgReason);

describe.skipIf(pgReason !== null)("Failed jobs on the dashboard", () => {
  const name = `firm_failedjobs_${randomBytes(4).toString("hex")}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  let boss: PgBoss;
  /** The server's SMTP server (the subscribers' mailings). */
  let smtp: TestSmtp;

  // Registered before the server's hooks, so it runs after the server has stopped (after-hooks run in reverse).
  afterAll(async () => {
    await smtp?.close();
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
    smtp = await startTestSmtp();
    return { quiet: true, env: { DATABASE_URL: url.toString(), AUTH_SECRET: "b".repeat(64), SMTP_URL: smtp.url } };
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

  it("a mailing's delivery that failed its last try: an owner presses Try again and the subscriber receives it once", async ({
    staffPage,
  }) => {
    const title = "Duty to defend after a ransomware claim";
    const address = "tryagain1@example.com";
    const received = () => smtp.messages.filter((m) => JSON.stringify(m.to ?? "").includes(address));
    const query = async <T>(text: string) => (await boss.getDb().executeSql(text)).rows as T[];
    const deliveryJobs = () =>
      query<{ state: string; retries: number }>(
        "select state, retry_count as retries from pgboss.job where name = 'mailing-delivery' order by created_on",
      );

    // Set-up in code: a confirmed subscriber, a published article and its mailing, which the server's run (every
    // 5 s) queues and tries; the SMTP server refuses it for now (451), so pg-boss will try it again in 30 s or more.
    smtp.refuseForNow = true;
    const { articleId, recipients } = await mailingReady(url.toString(), { subscribers: 1, topic: "insurance", people: "tryagain", title });
    expect(recipients).toEqual([address]);
    await expect.poll(deliveryJobs, { timeout: 30_000, interval: 250 }).toEqual([{ state: "retry", retries: 0 }]);
    // Its next try made its last (the sixth) and due now: pg-boss counts a retry when it fetches the job again.
    await query("update pgboss.job set retry_count = 4, start_after = now() where name = 'mailing-delivery' and state = 'retry'");
    await expect.poll(deliveryJobs, { timeout: 30_000, interval: 250 }).toEqual([{ state: "failed", retries: 5 }]);
    // The SMTP server takes mail again; nothing went to the subscriber yet.
    smtp.refuseForNow = false;
    expect(received()).toHaveLength(0);

    // The recovery, as an owner does it.
    const { page } = await staffPage({ viewport: { width: 1280, height: 900 } }, "owner", server.url);
    const progress = async () => {
      await page.goto(`${server.url}/dashboard/articles/${articleId}/mailing`);
      return page.locator("[data-mailing-progress]").textContent();
    };
    expect(await progress()).toBe(`Sent to subscribers of ${TOPIC_LABELS.insurance}: Sent 0 of 1; failed 1.`);
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole("link", { name: "Failed jobs" }).first().click();
    await page.waitForURL(/\/dashboard\/failed-jobs$/);
    const row = page.getByRole("row").filter({ hasText: address });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    const line = (await row.textContent()) ?? "";
    expect(line).toMatch(
      new RegExp(`^Mailing to a subscriber“${title}” to ${address.replace(".", "\\.")} \\(mailing \\d+, delivery \\d+\\)`),
    );
    expect(line).toContain("6 tries");
    expect(line).toContain("Try again later (test server busy)");
    await row.getByRole("button", { name: /^Try again: Mailing to a subscriber/ }).click();
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "The job has been sent again" }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByRole("row").filter({ hasText: address }).count()).toBe(0);

    // The subscriber receives the article within a few of the server's runs, once: its fresh job is done, none waits
    // to send it again, and the article's screen says it was sent.
    await expect.poll(() => received().length, { timeout: 30_000, interval: 250 }).toBe(1);
    expect(received()[0].subject).toContain(title);
    await expect.poll(deliveryJobs, { timeout: 15_000, interval: 250 }).toEqual([
      { state: "failed", retries: 5 },
      { state: "completed", retries: 0 },
    ]);
    expect(await progress()).toBe(`Sent to subscribers of ${TOPIC_LABELS.insurance}: Sent 1 of 1; failed 0.`);
    expect(received()).toHaveLength(1);
  }, 120_000);
});

/**
 * Mailings (issue 31, decisions 0024 and 0026) on a real database, pg-boss
 * and SMTP server: an article goes to the confirmed subscribers of its
 * topics once it is public, each at most once (a second run, a second "send"
 * for the article, a re-queue: nothing more); an address withdrawn after
 * queueing is skipped; a 5xx marks the address bounced; a 4xx is retried by
 * pg-boss later, and its last try is a dead letter described in words; a
 * delivery left by a killed instance is sent by its job's next try, once; a
 * batch that takes longer than the heartbeat is not tried twice; every
 * message carries the unsubscribe headers with that recipient's own links.
 */
import { and, eq, sql } from "drizzle-orm";
import { rowsOf } from "~/.server/db/rows";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemActor } from "~/.server/db/audit";
import { createArticle, publishDueArticles } from "~/.server/db/articles";
import { db } from "~/.server/db/client";
import {
  deliveryCounts,
  getMailingForArticle,
  mailingProgress,
  mailingRecipientCount,
  scheduleMailing,
  takeDeliveries,
} from "~/.server/db/mailings";
import { mailingDeliveries } from "~/.server/db/schema";
import { confirmSubscription, findSubscriberByEmail, requestSubscription, withdrawConsent } from "~/.server/db/subscribers";
import { setEnvForTests } from "~/.server/env";
import { closeMail, MAILING_CONNECTIONS } from "~/.server/mail/mail";
import {
  MAILING_DELIVERY_JOB,
  paceMs,
  queueMailings,
  runMailings,
  SENDING_FOR_MS,
  SENT_GROUP,
} from "~/.server/subscriptions/mailing-sender";
import { QUEUE_SCHEMA } from "~/.server/jobs/queue";
import type { SubscriptionTopic } from "~/lib/forms/subscribe";
import { createStaffAccount } from "~/.server/auth/staff-accounts";
import { auditLog } from "~/.server/db/schema";
import { signIn } from "~/.server/auth/sign-in";
import { mailingProgressText } from "~/components/admin/mailing-progress";
import * as mailingScreen from "~/routes/admin/article-mailing";
import * as previewRoute from "~/routes/admin/article-mailing-preview";
import { makeMailRetriesDue, setUpMailQueue, setUpTestSmtp } from "../support/mail-queue";
import { setUpTestDatabase } from "../support/database";
import { guarded, testContext } from "../support/route-call";
import { startSmtpSink, type SinkMessage } from "../support/smtp-sink";

const jobs = setUpMailQueue(setUpTestDatabase());
const smtpServer = setUpTestSmtp();
const actor = systemActor("test");

async function confirmed(email: string, topics: SubscriptionTopic[]) {
  const { token } = await requestSubscription({ email, topics, formUrl: "http://localhost:3000/subscribe", source: "web" });
  await confirmSubscription(token!);
  return (await findSubscriberByEmail(email))!;
}

async function article(
  title: string,
  category: string,
  state: { status: "draft" | "scheduled" | "published"; publishAt?: Date | null } = { status: "published" },
) {
  return createArticle(
    { title, img: "", category, news: false, priority: false, copy: "<p>The court held that the duty to defend applies.</p>", state },
    actor,
  );
}

/** The `mailing-delivery` jobs of a mailing's deliveries (pg-boss's table), by delivery id. */
async function deliveryJobs(mailingId: number) {
  const result = await db().execute(
    sql`select j.singleton_key as key, j.state, j.retry_count as "retryCount", j.start_after as "startAfter"
        from ${sql.raw(QUEUE_SCHEMA)}.job j join ${mailingDeliveries} d on d.id::text = j.singleton_key
        where j.name = ${MAILING_DELIVERY_JOB} and d.mailing_id = ${mailingId}`,
  );
  return rowsOf<{ key: string; state: string; retryCount: number; startAfter: Date }>(result);
}

/** One supervision pass of pg-boss over queue `name` now (its heartbeat and expiry checks), however recent the last one. */
async function superviseNow(name: string) {
  await db().execute(sql`update ${sql.raw(QUEUE_SCHEMA)}.queue set monitor_claim_on = null, monitor_on = null where name = ${name}`);
  await jobs.queue.boss.supervise(name);
}

const to = (address: string) => smtpServer.smtp.messages.filter((m) => JSON.stringify(m.to).includes(address));

beforeEach(() => setEnvForTests({ SMTP_URL: smtpServer.smtp.url, SUBSCRIBER_MAIL_RATE: "1000" }));

describe("mailings", () => {
  it("sends a published article once to each confirmed subscriber of its topics, with that person's own unsubscribe links", async () => {
    const ins = await confirmed("ins@example.com", ["insurance"]);
    await confirmed("both@example.com", ["insurance", "cyber"]);
    await confirmed("cyber@example.com", ["cyber"]);
    await requestSubscription({ email: "pending@example.com", topics: ["insurance"], formUrl: "f", source: "web" });
    const a = await article("Duty to defend: the Court of Appeal decides", "insurance");
    expect(await scheduleMailing(a.id, ["insurance"], actor, a.title)).toBe(true);
    const run = await runMailings({ budgetMs: 20_000 });
    expect(run).toMatchObject({ queued: 1, sent: 2 });
    expect(to("ins@example.com")).toHaveLength(1);
    expect(to("both@example.com")).toHaveLength(1);
    expect(to("cyber@example.com")).toHaveLength(0);
    expect(to("pending@example.com")).toHaveLength(0);
    const mail = to("ins@example.com")[0];
    const header = mail.headerLines.find((h) => h.key === "list-unsubscribe")!.line.replace(/\r?\n\s+/g, "");
    expect(header).toContain(`/subscribe/one-click/${ins.id.toString(36)}.`);
    expect(mail.text).toContain(`/subscribe/preferences/${ins.id.toString(36)}.`);
    expect(mail.messageId).toMatch(/^<mailing-\d+-\d+@localhost\.localdomain>$/);

    // Never twice: another run, another queueing, another "send" for the same article.
    expect(await runMailings({ budgetMs: 5_000 })).toMatchObject({ queued: 0, sent: 0 });
    expect(await queueMailings(jobs.queue.boss)).toBe(0);
    expect(await scheduleMailing(a.id, ["insurance", "cyber"], actor, a.title)).toBe(false);
    await runMailings({ budgetMs: 5_000 });
    expect(to("ins@example.com")).toHaveLength(1);
    expect(await mailingProgress(a.id)).toMatchObject({ status: "done", total: 2, sent: 2, failed: 0, waiting: 0 });
  });

  it("waits for a scheduled article, and skips an address withdrawn after the queue was made", async () => {
    const stays = await confirmed("stays@example.com", ["construction"]);
    const leaves = await confirmed("leaves@example.com", ["construction"]);
    const a = await article("Prompt payment in Ontario", "construction", {
      status: "scheduled",
      publishAt: new Date(Date.now() + 3_600_000),
    });
    await scheduleMailing(a.id, ["construction"], actor, a.title);
    expect(await runMailings({ budgetMs: 2_000 })).toMatchObject({ queued: 0, sent: 0 });
    expect((await getMailingForArticle(a.id))!.status).toBe("scheduled");
    await publishDueArticles(actor, new Date(Date.now() + 2 * 3_600_000));
    expect(await queueMailings(jobs.queue.boss)).toBe(1);
    await withdrawConsent(leaves.id, "one-click");
    const run = await runMailings({ budgetMs: 20_000 });
    expect(run).toMatchObject({ sent: 1, skipped: 1 });
    expect(to(stays.email)).toHaveLength(1);
    expect(to(leaves.email)).toHaveLength(0);
  });

  it("marks an address bounced on a 5xx and sends it nothing more; retries a 4xx later", async () => {
    const bad = await confirmed("bad-mailbox@example.com", ["news"]);
    const a = await article("Firm news: a new partner", "events");
    await scheduleMailing(a.id, ["news"], actor, a.title);
    smtpServer.smtp.refuse = true;
    try {
      expect(await runMailings({ budgetMs: 10_000 })).toMatchObject({ bounced: 1 });
    } finally {
      smtpServer.smtp.refuse = false;
    }
    expect((await findSubscriberByEmail(bad.email))!.status).toBe("bounced");

    const slow = await confirmed("slow@example.com", ["cyber"]);
    const b = await article("Ransomware: the first 48 hours", "cyber");
    await scheduleMailing(b.id, ["cyber"], actor, b.title);
    setEnvForTests({ SMTP_URL: "smtp://127.0.0.1:9" }); // nobody answers: temporary
    const failing = await runMailings({ budgetMs: 10_000 });
    expect(failing.retried).toBe(3); // slow@, and cyber@ and both@ from the first test
    expect(failing.sent).toBe(0);
    closeMail();
    const mailing = (await getMailingForArticle(b.id))!;
    const [row] = await db()
      .select()
      .from(mailingDeliveries)
      .where(and(eq(mailingDeliveries.mailing_id, mailing.id), eq(mailingDeliveries.subscriber_id, slow.id)));
    expect(row).toMatchObject({ status: "queued", last_error: expect.stringMatching(/ECONNREFUSED|connect/) });
    // Its try is pg-boss's: the job waits for its retry (30 s or more), counted by pg-boss.
    const [job] = (await deliveryJobs(mailing.id)).filter((j) => j.key === String(row.id));
    expect(job).toMatchObject({ state: "retry", retryCount: 0 });
    expect(new Date(job.startAfter).getTime()).toBeGreaterThan(Date.now() + 20_000);
    setEnvForTests({ SMTP_URL: smtpServer.smtp.url });
    expect(await runMailings({ budgetMs: 2_000 })).toMatchObject({ sent: 0 }); // not due yet
    await makeMailRetriesDue(MAILING_DELIVERY_JOB);
    expect(await runMailings({ budgetMs: 10_000 })).toMatchObject({ sent: 3 });
    expect(to(slow.email)).toHaveLength(1);
  });

  it("every accepted message's row says sent when the run ends, with the time it went, though the rows are written in groups", async () => {
    const people = [];
    for (let i = 0; i < SENT_GROUP + 7; i++) people.push(await confirmed(`group${i}@example.com`, ["construction"]));
    const a = await article("Delay claims on a hospital build", "construction");
    await scheduleMailing(a.id, ["construction"], actor, a.title);
    const before = Date.now();
    const run = await runMailings({ budgetMs: 20_000 });
    expect(run.sent).toBeGreaterThanOrEqual(people.length); // and any other mailing still due
    const mailing = (await getMailingForArticle(a.id))!;
    // These people and any earlier test's subscribers of the topic.
    const rows = await db().select().from(mailingDeliveries).where(eq(mailingDeliveries.mailing_id, mailing.id));
    expect(rows.length).toBeGreaterThanOrEqual(people.length);
    expect(await deliveryCounts(mailing.id)).toEqual({ sent: rows.length });
    for (const row of rows) expect(row.sent_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    for (const p of people) expect(to(p.email).filter((m) => m.subject?.includes("Delay claims on a hospital build"))).toHaveLength(1);
    expect(await mailingProgress(a.id)).toMatchObject({ status: "done", sent: rows.length, waiting: 0 });
  });

  it("keeps to SUBSCRIBER_MAIL_RATE: message n goes no sooner than n / rate seconds after the start (rounded down to a tick)", async () => {
    const rate = 20;
    const people = [];
    for (let i = 0; i < 30; i++) people.push(await confirmed(`paced${i}@example.com`, ["cyber"]));
    const a = await article("Incident response retainers, explained", "cyber");
    await scheduleMailing(a.id, ["cyber"], actor, a.title);
    const record: SinkMessage[] = [];
    const sink = await startSmtpSink({ name: "paced", record });
    setEnvForTests({ SMTP_URL: sink.url, SUBSCRIBER_MAIL_RATE: String(rate) });
    try {
      const before = Date.now();
      const run = await runMailings({ budgetMs: 20_000 });
      expect(run.sent).toBeGreaterThanOrEqual(people.length);
      expect(record).toHaveLength(run.sent);
      const times = record.map((m) => m.at - before).sort((x, y) => x - y);
      times.forEach((ms, n) => expect(ms, `message ${n} of ${times.length}`).toBeGreaterThanOrEqual(paceMs(n, rate)));
      // 30 or more at 20 a second: the last goes 1.4 s or more after the start.
      expect(times.at(-1)!).toBeGreaterThanOrEqual(1400);
    } finally {
      closeMail();
      await sink.close();
    }
  });

  it("a delivery left 'sending' by a killed instance is sent by its job's next try, once; a row sent or taken just now is never sent again", async () => {
    const crash = await confirmed("crash@example.com", ["insurance"]);
    const a = await article("Subrogation after a fire", "insurance");
    await scheduleMailing(a.id, ["insurance", "news"], actor, a.title);
    await queueMailings(jobs.queue.boss);
    const mailing = (await getMailingForArticle(a.id))!;
    const boss = jobs.queue.boss;
    // An instance fetches the jobs and takes the rows for its SMTP exchanges…
    const fetched = await boss.fetch<{ id: number }>(MAILING_DELIVERY_JOB, { batchSize: 100, includeMetadata: true });
    const mine = (await deliveryJobs(mailing.id)).map((j) => j.key);
    expect(fetched.map((j) => String(j.data.id))).toEqual(expect.arrayContaining(mine));
    const ids = fetched.map((j) => j.data.id);
    expect(await takeDeliveries(ids, new Date(Date.now() - SENDING_FOR_MS))).toEqual(new Set(ids));
    // …and a row taken just now is not taken again.
    expect(await takeDeliveries([ids[0]], new Date(Date.now() - SENDING_FOR_MS))).toEqual(new Set());
    expect(await deliveryCounts(mailing.id)).toEqual({ sending: mine.length });
    // It dies here, having sent none of them: its heartbeats stop; pg-boss's supervision fails the jobs (tried again later).
    await db().execute(
      sql`update ${sql.raw(QUEUE_SCHEMA)}.job set heartbeat_on = now() - interval '1 hour' where name = ${MAILING_DELIVERY_JOB}`,
    );
    await superviseNow(MAILING_DELIVERY_JOB);
    expect((await deliveryJobs(mailing.id)).map((j) => j.state)).toEqual(mine.map(() => "retry"));
    await makeMailRetriesDue(MAILING_DELIVERY_JOB);
    // Its rows were taken just now (the dead sender's exchange might still be open): the try leaves them and comes back.
    expect(await runMailings({ budgetMs: 5_000 })).toMatchObject({ sent: 0, left: mine.length });
    expect(to(crash.email).filter((m) => m.subject?.includes("Subrogation after a fire"))).toHaveLength(0);
    // Taken longer ago than any SMTP exchange lasts: the next try sends each, once.
    await db()
      .update(mailingDeliveries)
      .set({ claimed_at: new Date(Date.now() - SENDING_FOR_MS - 1000) })
      .where(eq(mailingDeliveries.mailing_id, mailing.id));
    await makeMailRetriesDue(MAILING_DELIVERY_JOB);
    expect(await runMailings({ budgetMs: 10_000 })).toMatchObject({ sent: mine.length });
    expect(await deliveryCounts(mailing.id)).toEqual({ sent: mine.length });
    expect(to(crash.email).filter((m) => m.subject?.includes("Subrogation after a fire"))).toHaveLength(1);
    // A job of a row already sent (its try came again, e.g. after a lost heartbeat) completes without sending.
    await boss.insert(MAILING_DELIVERY_JOB, [{ data: { id: fetched[0].data.id }, singletonKey: String(fetched[0].data.id) }]);
    expect(await runMailings({ budgetMs: 2_000 })).toMatchObject({ sent: 0, left: 1 });
    expect(to(crash.email).filter((m) => m.subject?.includes("Subrogation after a fire"))).toHaveLength(1);
  });

  it("pg-boss does not beat the heartbeat of a fetched job: one fetched and held past it is failed and fetched again (the duplicates' cause)", async () => {
    const boss = jobs.queue.boss;
    await boss.createQueue("heartbeat-probe", { heartbeatSeconds: 10, retryLimit: 2, retryDelay: 0 });
    const id = await boss.send("heartbeat-probe", { n: 1 });
    // A heartbeat of 1 s (pg-boss's options go no lower than 10 s; its supervision reads the job's column).
    await db().execute(sql`update ${sql.raw(QUEUE_SCHEMA)}.job set heartbeat_seconds = 1 where name = 'heartbeat-probe'`);
    const [first] = await boss.fetch("heartbeat-probe");
    expect(first.id).toBe(id);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    await superviseNow("heartbeat-probe");
    // The holder is still at work, but the job is back for another fetch: a second send, had it been a delivery without its row's guard.
    const [again] = await boss.fetch("heartbeat-probe");
    expect(again?.id).toBe(id);
    await boss.complete("heartbeat-probe", id!);
  });

  it("a batch whose sending outlasts the deliveries' heartbeat is sent once: the run beats the fetched jobs' heartbeats", async () => {
    const people = [];
    for (let i = 0; i < 12; i++) people.push(await confirmed(`beat${i}@example.com`, ["news"]));
    const a = await article("Firm news: Toronto office moves", "events");
    await scheduleMailing(a.id, ["news"], actor, a.title);
    await queueMailings(jobs.queue.boss);
    const mailing = (await getMailingForArticle(a.id))!;
    // A heartbeat of 1 s, and a slow SMTP server: 12 messages over 4 connections at 400 ms each take 1.2 s or more.
    await db().execute(
      sql`update ${sql.raw(QUEUE_SCHEMA)}.job set heartbeat_seconds = 1 where name = ${MAILING_DELIVERY_JOB} and state = 'created'`,
    );
    smtpServer.smtp.delayMs = 400;
    let supervising = true;
    const supervision = (async () => {
      while (supervising) {
        await superviseNow(MAILING_DELIVERY_JOB);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    try {
      const before = Date.now();
      const run = await runMailings({ budgetMs: 20_000, batch: 12 });
      expect(Date.now() - before).toBeGreaterThan(1200);
      expect(run).toMatchObject({ sent: people.length, retried: 0, left: 0 });
    } finally {
      supervising = false;
      await supervision;
      smtpServer.smtp.delayMs = 0;
    }
    // Never failed by its heartbeat (no retry), and nothing to send again.
    expect((await deliveryJobs(mailing.id)).map((j) => [j.state, j.retryCount])).toEqual(people.map(() => ["completed", 0]));
    await makeMailRetriesDue(MAILING_DELIVERY_JOB);
    expect(await runMailings({ budgetMs: 2_000 })).toMatchObject({ sent: 0 });
    for (const p of people) expect(to(p.email)).toHaveLength(1);
  });

  it("a delivery that fails its last try is left failed and is on Failed jobs in words: which mailing and which recipient", async () => {
    const last = await confirmed("last-try@example.com", ["news"]);
    const a = await article("Firm news: PIPEDA breach records", "events");
    await scheduleMailing(a.id, ["news"], actor, a.title);
    await queueMailings(jobs.queue.boss);
    const mailing = (await getMailingForArticle(a.id))!;
    const [delivery] = await db()
      .select()
      .from(mailingDeliveries)
      .where(and(eq(mailingDeliveries.mailing_id, mailing.id), eq(mailingDeliveries.subscriber_id, last.id)));
    // Its fifth retry (the sixth try) comes next: pg-boss counts a try when the job is fetched again.
    await db().execute(
      sql`update ${sql.raw(QUEUE_SCHEMA)}.job set retry_count = 4, started_on = now() where name = ${MAILING_DELIVERY_JOB} and singleton_key = ${String(delivery.id)}`,
    );
    const others = (await deliveryJobs(mailing.id)).length - 1; // the earlier test's subscribers of the topic
    smtpServer.smtp.refuseForNow = true;
    try {
      expect(await runMailings({ budgetMs: 5_000 })).toMatchObject({ failed: 1, retried: others });
    } finally {
      smtpServer.smtp.refuseForNow = false;
    }
    expect(await deliveryCounts(mailing.id)).toEqual(others ? { failed: 1, queued: others } : { failed: 1 });
    expect((await deliveryJobs(mailing.id)).find((j) => j.key === String(delivery.id))?.state).toBe("failed");
    const failed = (await jobs.queue.failedJobs()).find((f) => f.detail?.includes(last.email));
    expect(failed).toMatchObject({ job: "Mailing to a subscriber", attempts: 6 });
    expect(failed!.detail).toBe(
      `“Firm news: PIPEDA breach records” to last-try@example.com (mailing ${mailing.id}, delivery ${delivery.id})`,
    );
    expect(failed!.error).toMatch(/451|try again/i);
    expect(to(last.email)).toHaveLength(0);
    expect(await mailingProgress(a.id)).toMatchObject({ failed: 1, waiting: others });
    // Try again (an owner, on Failed jobs): a fresh job for the same delivery, which sends it once.
    expect(await jobs.queue.retryFailedJob(failed!.id)).toMatchObject({ outcome: "queued", label: "Mailing to a subscriber" });
    expect(await runMailings({ budgetMs: 5_000 })).toMatchObject({ sent: 1 });
    expect(to(last.email)).toHaveLength(1);
    expect((await jobs.queue.failedJobs()).find((f) => f.detail?.includes(last.email))).toBeUndefined();
  });

  it("on their last try, deliveries a slow batch left unsent are failed, not waiting: the mailing ends, and they are on Failed jobs", async () => {
    const a = await article("Firm news: the slow batch", "events");
    await scheduleMailing(a.id, ["news"], actor, a.title);
    await queueMailings(jobs.queue.boss);
    const mailing = (await getMailingForArticle(a.id))!;
    // The topic's subscribers so far (the earlier tests'): more than two rounds of the 4 SMTP connections.
    const n = (await deliveryJobs(mailing.id)).length;
    expect(n).toBeGreaterThan(2 * MAILING_CONNECTIONS);
    // Every delivery's job on its last try (its fifth retry comes next: pg-boss counts a try when the job is fetched).
    await db().execute(
      sql`update ${sql.raw(QUEUE_SCHEMA)}.job j set retry_count = 4, started_on = now() from ${mailingDeliveries} d
          where j.name = ${MAILING_DELIVERY_JOB} and j.singleton_key = d.id::text and d.mailing_id = ${mailing.id}`,
    );
    // A slow SMTP server (8 s a message, under the 10 s timeout): two rounds of 4 take 16 s, past half of
    // SENDING_FOR_MS, so the batch's others are not sent by this run.
    smtpServer.smtp.delayMs = 8_000;
    try {
      expect(await runMailings({ budgetMs: 40_000, batch: n })).toMatchObject({
        sent: 2 * MAILING_CONNECTIONS,
        failed: n - 2 * MAILING_CONNECTIONS,
      });
    } finally {
      smtpServer.smtp.delayMs = 0;
    }
    // None left waiting (a dead letter whose row waited `queued` kept the mailing "sending" for good).
    expect(await deliveryCounts(mailing.id)).toEqual({ sent: 2 * MAILING_CONNECTIONS, failed: n - 2 * MAILING_CONNECTIONS });
    expect(await mailingProgress(a.id)).toMatchObject({ waiting: 0, failed: n - 2 * MAILING_CONNECTIONS });
    const failed = (await jobs.queue.failedJobs()).filter((f) => f.detail?.includes("the slow batch"));
    expect(failed).toHaveLength(n - 2 * MAILING_CONNECTIONS);
    // Try again on one: sent once.
    const address = /to (\S+@example\.com)/.exec(failed[0].detail!)![1];
    expect(await jobs.queue.retryFailedJob(failed[0].id)).toMatchObject({ outcome: "queued" });
    expect(await runMailings({ budgetMs: 5_000 })).toMatchObject({ sent: 1 });
    expect(to(address).filter((m) => m.subject?.includes("the slow batch"))).toHaveLength(1);
  }, 90_000);
});

describe("Send to subscribers (the article's screen)", () => {
  const ORIGIN = "http://localhost:3000";
  let editor = "";
  let admin = "";
  const cookieOf = async (email: string, role: "editor" | "admin") => {
    await createStaffAccount(email, "a-long-enough-password", role === "editor" ? "Writer" : "Manager", role);
    const result = await signIn(new Request(`${ORIGIN}/admin`), email, "a-long-enough-password", "192.0.2.1");
    if (!result.ok) throw new Error("sign-in failed");
    return result.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  };
  beforeAll(async () => {
    editor = await cookieOf("writer@example.com", "editor");
    admin = await cookieOf("manager@example.com", "admin");
  });

  const post = async (id: number, fields: [string, string][], cookie = editor) => {
    const request = new Request(`${ORIGIN}/dashboard/articles/${id}/mailing`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    });
    let result: unknown;
    try {
      result = await guarded(mailingScreen.action, { request, params: { id: String(id) }, context: testContext() });
    } catch (thrown) {
      result = thrown;
    }
    if (result instanceof Response) return { status: result.status, text: "" };
    const d = result as {
      data: { status?: { text: string }; confirm?: { recipients: number; topics: string[] } };
      init?: { status?: number };
    };
    return { status: d.init?.status ?? 200, text: d.data.status?.text ?? "", confirm: d.data.confirm };
  };

  it("defaults to the article's practice area, previews the e-mail, sends a test to me; an editor gets 403 from the send action; an admin confirms the exact number once and sends once", async () => {
    const a = await article("Limitation periods for construction liens", "construction");
    const page = await guarded(mailingScreen.loader, {
      request: new Request(`${ORIGIN}/dashboard/articles/${a.id}/mailing`, { headers: { cookie: editor } }),
      params: { id: String(a.id) },
      context: testContext(),
    });
    expect(page.topics).toEqual(["construction"]);
    const preview = await guarded(previewRoute.loader, {
      request: new Request(`${ORIGIN}/dashboard/articles/${a.id}/mailing/preview`, { headers: { cookie: editor } }),
      params: { id: String(a.id) },
      context: testContext(),
    });
    const html = await preview.text();
    expect(html).toContain('lang="en"');
    expect(html).toContain("Limitation periods for construction liens");
    expect(await post(a.id, [["intent", "test"]])).toEqual({ status: 200, text: "A test was sent to you." });
    await smtpServer.smtp.waitFor((m) => m.subject === "[Test] Limitation periods for construction liens");
    // An editor may send a test to themselves, never to the subscribers (403, nothing scheduled).
    const send: [string, string][] = [
      ["intent", "schedule"],
      ["topics", "construction"],
      ["confirm", "yes"],
    ];
    expect(await post(a.id, send)).toMatchObject({ status: 403 });
    expect(await post(a.id, send.slice(0, 2))).toMatchObject({ status: 403 });
    expect(await mailingProgress(a.id)).toBeNull();
    // An admin: no topic is refused; the first press states the exact number of recipients and asks once to confirm.
    expect(await post(a.id, [["intent", "schedule"]], admin)).toMatchObject({ status: 400 });
    const expected = await mailingRecipientCount(["construction"]);
    const asked = await post(a.id, send.slice(0, 2), admin);
    expect(asked).toMatchObject({ status: 200, confirm: { recipients: expected, topics: ["construction"] } });
    expect(await mailingProgress(a.id)).toBeNull();
    expect(await post(a.id, send, admin)).toMatchObject({ status: 302 });
    await runMailings({ budgetMs: 10_000 });
    expect(await post(a.id, send, admin)).toMatchObject({ status: 409 });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.item_id, String(a.id)), eq(auditLog.action, "mail")));
    expect(entry).toMatchObject({ item_type: "article", actor_label: "manager@example.com" });
    expect(mailingProgressText((await mailingProgress(a.id))!)).toMatch(
      new RegExp(`^Sent to subscribers of Construction Disputes: Sent ${expected} of ${expected}; failed 0\\.$`),
    );
  });
});

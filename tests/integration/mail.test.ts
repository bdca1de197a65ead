/**
 * The mail layer against a real SMTP server started by the test: a message
 * arrives with its plain-text and HTML parts; without SMTP it stays in the
 * outbox (and says so); a refusing or absent server leaves it in the outbox
 * as failed, and its job on the job queue (pg-boss, `mail-send`) delivers it
 * once the server accepts; a slow server gets it once (its job waits up to a
 * minute for an answer); one refused for good is not retried, and one that
 * fails every try ends on the dead-letter queue (Failed jobs), still failed in
 * the Outbox.
 */
import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { mailOutbox } from "~/.server/db/schema";
import { setEnvForTests } from "~/.server/env";
import {
  DELIVERED_BODY_REMOVED,
  mailFrom,
  PERMANENT_PREFIX,
  keepMail,
  MAIL_JOB,
  queueMail,
  resendMail,
  sendMail,
  type MailMessage,
} from "~/.server/mail/mail";
import { MAX_ATTEMPTS } from "~/.server/jobs/retry";
import { startTestSmtp } from "../support/smtp";
import { setUpTestDatabase } from "../support/database";
import { deliverDueMail, makeMailRetriesDue, setUpMailQueue, setUpTestSmtp } from "../support/mail-queue";

const state = setUpTestDatabase();
const mail = setUpMailQueue(state);
const sink = setUpTestSmtp();

const message = (n: number, extra: Partial<MailMessage> = {}): MailMessage => ({
  to: `person${n}@example.com`,
  subject: `Test message ${n}`,
  text: `Hello ${n}. Open http://localhost:3000/admin/invite/abc${n}`,
  html: `<p>Hello ${n}. <a href="http://localhost:3000/admin/invite/abc${n}">Open</a></p>`,
  kind: "test",
  ...extra,
});

async function row(id: number) {
  const [r] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return r;
}

describe("without SMTP (the embedded default)", () => {
  it("keeps the message in the outbox and does not pretend it was sent", async () => {
    setEnvForTests({ SMTP_URL: "" });
    const result = await sendMail(message(1));
    expect(result.status).toBe("outbox");
    expect(await row(result.id)).toMatchObject({
      status: "outbox",
      to_address: "person1@example.com",
      subject: "Test message 1",
      sent_at: null,
    });
    expect((await row(result.id)).text_body).toContain("/admin/invite/abc1");
    expect(sink.smtp.messages).toHaveLength(0);
  });
});

describe("with SMTP", () => {
  beforeAll(() => {
    setEnvForTests({ SMTP_URL: sink.smtp.url, MAIL_FROM: "Harrow Kline LLP <web@harrowkline.example>" });
  });

  it("delivers a message with plain-text and HTML parts and a working link", async () => {
    const result = await sendMail(message(2));
    expect(result.status).toBe("sent");
    const received = await sink.smtp.waitFor((m) => m.subject === "Test message 2");
    expect(received.from?.value[0]).toMatchObject({ name: "Harrow Kline LLP", address: "web@harrowkline.example" });
    expect(received.to && !Array.isArray(received.to) ? received.to.text : "").toBe("person2@example.com");
    expect(received.text).toContain("http://localhost:3000/admin/invite/abc2");
    expect(received.html).toContain('href="http://localhost:3000/admin/invite/abc2"');
    expect(await row(result.id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("removes the body of a sensitive message (a sign-in link) once delivered", async () => {
    const result = await sendMail(message(3, { sensitive: true }));
    expect(result.status).toBe("sent");
    expect((await sink.smtp.waitFor((m) => m.subject === "Test message 3")).text).toContain("abc3");
    const kept = await row(result.id);
    expect(kept.text_body).toBe(DELIVERED_BODY_REMOVED);
    expect(kept.html_body).not.toContain("abc3");
  });

  it("a message refused for now (4xx) is kept as failed with the reason, and its job delivers it once the server accepts", async () => {
    sink.smtp.refuseForNow = true;
    const result = await sendMail(message(4));
    expect(result.status).toBe("failed");
    expect(result.status === "failed" && result.error).toMatch(/451/);
    const failed = await row(result.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.next_attempt_at!.getTime()).toBeGreaterThan(Date.now());

    // Not yet due (its job waits the retry delay): nothing is tried.
    expect(await deliverDueMail(mail.queue)).toBe(0);
    sink.smtp.refuseForNow = false;
    // Due (as pg-boss's worker would find it 30 s later; the jobs of the messages sent at once above find them sent).
    await makeMailRetriesDue();
    await deliverDueMail(mail.queue);
    await sink.smtp.waitFor((m) => m.subject === "Test message 4");
    expect(await row(result.id)).toMatchObject({ status: "sent", attempts: 2, last_error: null, next_attempt_at: null });
    // Its job is done: nothing more to run.
    await makeMailRetriesDue();
    expect(await deliverDueMail(mail.queue)).toBe(0);
  });

  it("a message left to the queue (a public form's) is delivered by its job: retried by pg-boss after a temporary failure", async () => {
    sink.smtp.refuseForNow = true;
    const id = await queueMail(message(7));
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 0 });
    expect(await deliverDueMail(mail.queue)).toBe(1);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.last_error).toMatch(/451/);
    expect(failed.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 25_000);
    const [job] = await mail.queue.boss.findJobs(MAIL_JOB, { key: String(id) });
    expect(job).toMatchObject({ state: "retry", retryCount: 0 });

    sink.smtp.refuseForNow = false;
    await makeMailRetriesDue();
    expect(await deliverDueMail(mail.queue)).toBe(1);
    await sink.smtp.waitFor((m) => m.subject === "Test message 7");
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    expect(sink.smtp.messages.filter((m) => m.subject === "Test message 7")).toHaveLength(1);
  });

  it("a slow SMTP server (12 s to take a message, past the 10 s a person waits) gets the message once from its job: sent, not failed and sent again", async () => {
    const id = await queueMail(message(12));
    sink.smtp.delayMs = 12_000;
    try {
      expect(await deliverDueMail(mail.queue)).toBe(1);
    } finally {
      sink.smtp.delayMs = 0;
    }
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    await makeMailRetriesDue();
    expect(await deliverDueMail(mail.queue)).toBe(0);
    expect(sink.smtp.messages.filter((m) => m.subject === "Test message 12")).toHaveLength(1);
  });

  it("a message's job is written in the transaction that keeps it: committed together, or rolled back together", async () => {
    const jobs = async () => (await mail.queue.boss.findJobs(MAIL_JOB)).length;
    const before = await jobs();
    await expect(
      db().transaction(async (tx) => {
        await keepMail(tx, message(10));
        throw new Error("the change that made it failed");
      }),
    ).rejects.toThrow("the change that made it failed");
    expect(await jobs()).toBe(before);
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.subject, "Test message 10"))).toEqual([]);
    const id = await db().transaction((tx) => keepMail(tx, message(11)));
    expect(await mail.queue.boss.findJobs(MAIL_JOB, { key: String(id) })).toEqual([expect.objectContaining({ state: "created" })]);
    expect(await deliverDueMail(mail.queue)).toBe(1);
    await sink.smtp.waitFor((m) => m.subject === "Test message 11");
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("a message that fails every try ends on the dead-letter queue (Failed jobs) and stays failed in the Outbox with its last error", async () => {
    sink.smtp.refuseForNow = true;
    const id = await queueMail(message(8));
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      await makeMailRetriesDue();
      await deliverDueMail(mail.queue);
    }
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, next_attempt_at: null });
    expect(failed.last_error).toMatch(/451/);
    const letters = await mail.queue.failedJobs();
    expect(letters).toEqual([
      expect.objectContaining({
        job: "E-mail",
        detail: `“Test message 8” to ${message(8).to} (Outbox message ${id})`,
        attempts: MAX_ATTEMPTS,
        error: expect.stringMatching(/451/),
      }),
    ]);
    sink.smtp.refuseForNow = false;
    expect(sink.smtp.messages.filter((m) => m.subject === "Test message 8")).toHaveLength(0);
    // Try again on Failed jobs: a fresh job with its key, which delivers it.
    expect(await mail.queue.retryFailedJob(letters[0].id)).toMatchObject({ outcome: "queued", name: MAIL_JOB, label: "E-mail" });
    expect(await deliverDueMail(mail.queue)).toBe(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: MAX_ATTEMPTS + 1 });
  });

  it("a message refused for good (5xx, a bad address) is not retried: kept as failed with the reason; an owner's 'send again' still can", async () => {
    sink.smtp.refuse = true;
    const result = await sendMail(message(6));
    expect(result.status === "failed" && result.error).toMatch(/550/);
    const failed = await row(result.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, next_attempt_at: null });
    expect(failed.last_error).toMatch(new RegExp(`^${PERMANENT_PREFIX}`));
    // A public form's message refused for good: its job completes, with no retry.
    const queued = await queueMail(message(9));
    expect(await deliverDueMail(mail.queue)).toBe(1);
    expect(await row(queued)).toMatchObject({ status: "failed", attempts: 1, next_attempt_at: null });
    expect((await mail.queue.boss.findJobs(MAIL_JOB, { key: String(queued) }))[0]).toMatchObject({ state: "completed" });
    sink.smtp.refuse = false;
    // Never tried again, however late a job comes.
    await makeMailRetriesDue();
    await deliverDueMail(mail.queue);
    expect(await row(result.id)).toMatchObject({ status: "failed", attempts: 1 });
    expect(await row(queued)).toMatchObject({ status: "failed", attempts: 1 });
    expect(sink.smtp.messages.filter((m) => m.subject === "Test message 6" || m.subject === "Test message 9")).toHaveLength(0);
    expect(await resendMail(result.id)).toMatchObject({ status: "sent" });
  });

  it("an SMTP server that is down: the message is kept as failed, and an owner's 'send again' delivers it", async () => {
    const down = await startTestSmtp();
    await down.close();
    setEnvForTests({ SMTP_URL: down.url });
    const result = await sendMail(message(5));
    expect(result.status).toBe("failed");
    expect(result.status === "failed" && result.error).toMatch(/ECONNREFUSED|connect/i);
    setEnvForTests({ SMTP_URL: sink.smtp.url });
    expect(await resendMail(result.id)).toMatchObject({ status: "sent" });
    await sink.smtp.waitFor((m) => m.subject === "Test message 5");
    const [latest] = await db().select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect(latest).toMatchObject({ id: result.id, status: "sent" });
  });
});

describe("the From address", () => {
  it("defaults to the firm's name at the site's host", () => {
    const env = setEnvForTests({
      MAIL_FROM: "",
      PUBLIC_URL: "https://www.harrowkline.example",
      AUTH_SECRET: "x".repeat(40),
      PASSWORD_HASH_COST: "standard",
    });
    expect(mailFrom(env)).toBe('"Harrow Kline LLP" <no-reply@www.harrowkline.example>');
  });
});

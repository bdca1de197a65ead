/**
 * The mail layer against a real SMTP server started by the test: a message
 * arrives with its plain-text and HTML parts; without SMTP it stays in the
 * outbox (and says so); a refusing or absent server leaves it in the outbox
 * as failed, and the retry delivers it once the server accepts.
 */
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { mailOutbox } from "~/.server/db/schema";
import { setEnvForTests } from "~/.server/env";
import {
  closeMail,
  DELIVERED_BODY_REMOVED,
  mailFrom,
  PERMANENT_PREFIX,
  resendMail,
  retryFailedMail,
  sendMail,
  type MailMessage,
} from "~/.server/mail/mail";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  closeMail();
  await smtp.close();
});

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
    expect(smtp.messages).toHaveLength(0);
  });
});

describe("with SMTP", () => {
  beforeAll(() => {
    setEnvForTests({ SMTP_URL: smtp.url, MAIL_FROM: "Harrow Kline LLP <web@harrowkline.example>" });
  });

  it("delivers a message with plain-text and HTML parts and a working link", async () => {
    const result = await sendMail(message(2));
    expect(result.status).toBe("sent");
    const received = await smtp.waitFor((m) => m.subject === "Test message 2");
    expect(received.from?.value[0]).toMatchObject({ name: "Harrow Kline LLP", address: "web@harrowkline.example" });
    expect(received.to && !Array.isArray(received.to) ? received.to.text : "").toBe("person2@example.com");
    expect(received.text).toContain("http://localhost:3000/admin/invite/abc2");
    expect(received.html).toContain('href="http://localhost:3000/admin/invite/abc2"');
    expect(await row(result.id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("removes the body of a sensitive message (a sign-in link) once delivered", async () => {
    const result = await sendMail(message(3, { sensitive: true }));
    expect(result.status).toBe("sent");
    expect((await smtp.waitFor((m) => m.subject === "Test message 3")).text).toContain("abc3");
    const kept = await row(result.id);
    expect(kept.text_body).toBe(DELIVERED_BODY_REMOVED);
    expect(kept.html_body).not.toContain("abc3");
  });

  it("a message refused for now (4xx) is kept as failed with the reason, and the retry delivers it once the server accepts", async () => {
    smtp.refuseForNow = true;
    const result = await sendMail(message(4));
    expect(result.status).toBe("failed");
    expect(result.status === "failed" && result.error).toMatch(/451/);
    const failed = await row(result.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.next_attempt_at!.getTime()).toBeGreaterThan(Date.now());

    // Not yet due: nothing is sent.
    expect(await retryFailedMail()).toBe(0);
    smtp.refuseForNow = false;
    // Due (as the scheduler would find it a minute later).
    expect(await retryFailedMail(new Date(Date.now() + 61_000))).toBe(1);
    await smtp.waitFor((m) => m.subject === "Test message 4");
    expect(await row(result.id)).toMatchObject({ status: "sent", attempts: 2, last_error: null });
  });

  it("a message refused for good (5xx, a bad address) is not retried: kept as failed with the reason; an owner's 'send again' still can", async () => {
    smtp.refuse = true;
    const result = await sendMail(message(6));
    expect(result.status === "failed" && result.error).toMatch(/550/);
    const failed = await row(result.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, next_attempt_at: null });
    expect(failed.last_error).toMatch(new RegExp(`^${PERMANENT_PREFIX}`));
    smtp.refuse = false;
    // Never due, however late the retry job runs.
    expect(await retryFailedMail(new Date(Date.now() + 24 * 3600_000))).toBe(0);
    expect(await row(result.id)).toMatchObject({ status: "failed", attempts: 1 });
    expect(await resendMail(result.id)).toMatchObject({ status: "sent" });
  });

  it("an SMTP server that is down: the message is kept as failed, and an owner's 'send again' delivers it", async () => {
    const down = await startTestSmtp();
    await down.close();
    setEnvForTests({ SMTP_URL: down.url });
    const result = await sendMail(message(5));
    expect(result.status).toBe("failed");
    expect(result.status === "failed" && result.error).toMatch(/ECONNREFUSED|connect/i);
    setEnvForTests({ SMTP_URL: smtp.url });
    expect(await resendMail(result.id)).toMatchObject({ status: "sent" });
    await smtp.waitFor((m) => m.subject === "Test message 5");
    const [latest] = await db().select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect(latest).toMatchObject({ id: result.id, status: "sent" });
  });
});

describe("the From address", () => {
  it("defaults to the firm's name at the site's host", () => {
    const env = setEnvForTests({ MAIL_FROM: "", PUBLIC_URL: "https://www.harrowkline.example", AUTH_SECRET: "x".repeat(40) });
    expect(mailFrom(env)).toBe('"Harrow Kline LLP" <no-reply@www.harrowkline.example>');
  });
});

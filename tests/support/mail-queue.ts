/**
 * The mail layer's job queue for integration tests: the site's `mail-send`
 * job (the Outbox) and `mailing-delivery` job (mailings, fetched by
 * `runMailings`) on pg-boss over the test's database (PGlite or PostgreSQL),
 * with no worker polling: `deliverDueMail` runs the Outbox's jobs that are
 * due, as a worker would, so a test sees each try. `makeMailRetriesDue`
 * brings pg-boss's retry delays (30 s and more) to now.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { db, type Database } from "~/.server/db/client";
import { setJobQueueForTests } from "~/.server/http/startup";
import { siteJobs } from "~/.server/jobs/jobs";
import { createJobQueue, QUEUE_SCHEMA, type JobQueue } from "~/.server/jobs/queue";
import { closeMail, MAIL_JOB, mailSettled } from "~/.server/mail/mail";
import { MAILING_DELIVERY_JOB } from "~/.server/subscriptions/mailing-sender";
import { startTestSmtp, type TestSmtp } from "./smtp";

/** Registers hooks that start the mail queue for this file (after the database is set up). */
export function setUpMailQueue(state: { readonly database: Database }): { readonly queue: JobQueue } {
  const holder = {} as { queue: JobQueue };
  beforeAll(async () => {
    holder.queue = createJobQueue(
      state.database,
      siteJobs(state.database).filter((j) => j.name === MAIL_JOB || j.name === MAILING_DELIVERY_JOB),
    );
    await holder.queue.start({ work: false, catchUp: false });
    setJobQueueForTests(holder.queue);
  });
  afterAll(async () => {
    setJobQueueForTests(undefined);
    await holder.queue?.stop();
  });
  return holder;
}

/** Runs every `mail-send` job that is due now, one at a time. Returns how many ran. */
export async function deliverDueMail(queue: JobQueue): Promise<number> {
  let ran = 0;
  while ((await queue.runNow(MAIL_JOB)) !== "skipped") ran++;
  return ran;
}

/** The `mail-send` jobs (or those of `name`) waiting for their next try (pg-boss's retry delay), made due now. */
export async function makeMailRetriesDue(name: string = MAIL_JOB): Promise<void> {
  await db().execute(
    sql.raw(`update ${QUEUE_SCHEMA}.job set start_after = now() where name = '${name}' and state in ('created', 'retry')`),
  );
}

/** Every message handed over after an answer kept (`mailSettled`), then every due job run: what a running site has sent by now. */
export async function mailDelivered(queue: JobQueue): Promise<void> {
  await mailSettled();
  await deliverDueMail(queue);
}

/**
 * Registers hooks that start a real SMTP server (tests/support/smtp.ts) for this file and, after its tests,
 * close the site's mail transport and the server. The server is `.smtp` once the tests run.
 */
export function setUpTestSmtp(): { readonly smtp: TestSmtp } {
  const holder = {} as { smtp: TestSmtp };
  beforeAll(async () => {
    holder.smtp = await startTestSmtp();
  });
  afterAll(async () => {
    closeMail();
    await holder.smtp?.close();
  });
  return holder;
}

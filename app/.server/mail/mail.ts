/**
 * The one mail layer: every message the site sends (staff invitations,
 * password resets, enquiry notifications…) goes through `sendMail`.
 *
 * Each message is first kept in the `mail_outbox` table. With `SMTP_URL` it
 * is delivered through nodemailer by its own job of the job queue
 * (`mail-send`, pg-boss, keyed by the row's id, written in the transaction
 * that keeps the row); a staff member who waits on the answer gets a first
 * try at once (`sendMail`), the job then being its retry. A refused or
 * unreachable SMTP server leaves it `failed` in the outbox, and pg-boss tries
 * its job again with the site's one backoff (jobs/retry.ts, up to
 * MAX_ATTEMPTS tries); after the last it is on Failed jobs (dead letter) and
 * stays `failed` in the outbox. Without SMTP (the embedded default) it stays in the
 * outbox, where owners read it in the dashboard; the log line says so.
 * Nothing is lost and nothing pretends to be sent.
 *
 * A `sensitive` message (one holding a sign-in link) has its body removed
 * from the outbox once an SMTP server has accepted it: the link then lives
 * only in the recipient's mailbox.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import nodemailer, { type Transporter } from "nodemailer";
import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { FIRM } from "~/config/firm";
import { recordAudit, type Actor } from "../db/audit";
import { db, type Db } from "../db/client";
import { mailOutbox, type MailAttachment } from "../db/schema";
import { getEnv, type Env } from "../env";
import { jobRowId, overTransaction, type Attempt } from "../jobs/queue";
import { RETRY, retryDelayMs } from "../jobs/retry";
import { log } from "../log";
import { currentServices } from "../services";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What the message is, for the outbox list: "invitation", "password-reset", "enquiry"… */
  kind: string;
  /** Holds a sign-in link: its body is not kept once delivered. */
  sensitive?: boolean;
  /** Kept, not sent, until the Outbox job releases it (the site-wide cap on sign-up e-mails an hour). */
  hold?: boolean;
  /** Files sent with it (an event's calendar file as text; a certificate's PDF as base64). */
  attachments?: MailAttachment[];
};

export type MailResult =
  /** Accepted by the SMTP server. */
  | { id: number; status: "sent" }
  /** No SMTP configured: kept in the outbox for an owner to read. */
  | { id: number; status: "outbox" }
  /** Held by an hourly cap: sent once the Outbox job releases it. */
  | { id: number; status: "held" }
  /** Kept, with its job: the job queue sends it (its job had already taken it). */
  | { id: number; status: "queued" }
  /** The SMTP server refused it or did not answer: kept in the outbox, retried later unless refused for good (`permanent`: a 5xx). */
  | { id: number; status: "failed"; error: string; permanent?: boolean };

export const DELIVERED_BODY_REMOVED = "(Delivered. The body is not kept because it held a sign-in link.)";

/** The From address: MAIL_FROM, or the firm's name at the site's own host. */
export function mailFrom(env: Env = getEnv()): string {
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const host = new URL(env.publicUrl).hostname;
  return `"${FIRM.name}" <no-reply@${host.includes(".") ? host : `${host}.localdomain`}>`;
}

export function smtpConfigured(env: Env = getEnv()): boolean {
  return !!env.SMTP_URL;
}

type Held = { url: string; transport: Transporter };
/** What the mailings' SMTP thread (server/mailing-worker.js) says of a message it could not send. */
type SmtpFailure = { code?: string; responseCode?: number; response?: string; message: string };
type MailingSender = { url: string; worker: Worker; pending: Map<number, (failure: SmtpFailure | null) => void>; next: number };
/** The transports, kept in the services (services.ts; the current ones: a request's, else the process's): made on first use, closed at shutdown. */
export type MailTransports = { transport?: Held; jobTransport?: Held; mailingSender?: MailingSender };
const holder = (): MailTransports => currentServices().mail;

/** SMTP connections a mailing to subscribers keeps open and sends over at once. */
export const MAILING_CONNECTIONS = 4;
/** Short timeouts: a staff member is waiting on the answer; a retry comes later anyway. */
const TIMEOUTS = { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 10000 };

/**
 * An Outbox job's (`mail-send`): nobody waits on it, so a slow server is given
 * a minute to answer. A message whose answer comes after the client gave up
 * is marked failed and sent again: the second copy RFC 5321 §4.5.3.2.6 asks
 * clients to avoid by waiting (it names 10 minutes for the end of the data;
 * a minute keeps one stuck server from holding the queue's worker longer).
 */
const JOB_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
/** The `mail-send` job's longest run (jobs.ts): longer than an exchange with JOB_TIMEOUTS can last (a connection, a greeting and five answers). */
export const MAIL_JOB_EXPIRE_SECONDS = 6 * 60;

/**
 * Staff mail and the outbox: a connection a message, over the transport kept
 * for `url` (made again when SMTP_URL changes); `forJob`: the Outbox job's,
 * with JOB_TIMEOUTS.
 */
function transport(url: string, forJob: boolean): Transporter {
  const key = forJob ? "jobTransport" : "transport";
  const held = holder()[key];
  if (held?.url === url) return held.transport;
  held?.transport.close();
  const made = nodemailer.createTransport({ url, ...(forJob ? JOB_TIMEOUTS : TIMEOUTS) });
  holder()[key] = { url, transport: made };
  return made;
}

/**
 * Mailings: a thread of their own (server/mailing-worker.js, decision 0024)
 * holding a pool of MAILING_CONNECTIONS SMTP connections, so ~200 messages a
 * second do not take the thread that serves the pages. Made for `url`, again
 * when SMTP_URL changes or after it stopped; a message it held when it
 * stopped counts as a temporary failure (retried).
 */
function mailingSender(url: string): MailingSender {
  const held = holder().mailingSender;
  if (held?.url === url) return held;
  if (held) stopMailingSender(held);
  const worker = new Worker(createRequire(import.meta.url).resolve("#mailing-worker"), {
    workerData: { transport: { url, ...TIMEOUTS, pool: true, maxConnections: MAILING_CONNECTIONS, maxMessages: 1000 } },
    // Its own small heap: the messages pass through it and die young.
    resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 },
  });
  worker.unref();
  const sender: MailingSender = { url, worker, pending: new Map(), next: 0 };
  worker.on("message", ({ id, error }: { id: number; error?: SmtpFailure }) => {
    sender.pending.get(id)?.(error ?? null);
    sender.pending.delete(id);
    if (!sender.pending.size) worker.unref();
  });
  const stopped = (reason: string) => {
    for (const done of sender.pending.values()) done({ message: reason });
    sender.pending.clear();
    if (holder().mailingSender === sender) holder().mailingSender = undefined;
  };
  worker.on("error", (error: Error) => {
    log("error", "the mailings' SMTP thread failed", { error: error.message });
    stopped(`the mail thread failed: ${error.message}`);
  });
  worker.on("exit", () => stopped("the mail thread stopped before the SMTP server answered"));
  holder().mailingSender = sender;
  return sender;
}

function stopMailingSender(sender: MailingSender) {
  if (holder().mailingSender === sender) holder().mailingSender = undefined;
  void sender.worker.terminate();
}

/** Hands one whole message to the mailings' thread; null once the SMTP server accepted it. */
function sendOnMailingThread(url: string, envelope: { from: string; to: string }, raw: string): Promise<SmtpFailure | null> {
  const sender = mailingSender(url);
  return new Promise((resolve) => {
    const id = ++sender.next;
    sender.pending.set(id, resolve);
    sender.worker.ref();
    sender.worker.postMessage({ id, ...envelope, raw });
  });
}

/** The start of a kept message's error when the SMTP server refused it for good. */
export const PERMANENT_PREFIX = "Refused for good, not retried: ";

/** Whether the SMTP server refused the message for good (a 5xx reply). */
export function isPermanentSmtpFailure(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

function describeSmtpError(error: unknown): string {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const detail = e.response ?? e.message ?? String(error);
  return [e.code, e.responseCode, detail].filter(Boolean).join(" ").replace(/\s+/g, " ").slice(0, 300);
}

/** The job queue's queue that delivers kept messages: one job a message, keyed by the row's id (jobs.ts). */
export const MAIL_JOB = "mail-send";

/** A message a person's request is sending is left to it this long before its job takes it again (longer than any SMTP exchange with TIMEOUTS). */
const SENDING_FOR_MS = RETRY.retryDelay * 1000;

/**
 * Writes the job that delivers message `id` (through `tx` when given: in the
 * same transaction). Without a job queue in this process (a script, a test
 * that runs none) the row waits `queued` until a server's `outbox-release`
 * job gives it one. With `after`, the job starts that many seconds later and
 * has one try less: its sender tries once now (sendKeptMail). Returns
 * whether a job was written (not when the message has one already: its key).
 */
async function queueDelivery(tx: Db, id: number, after?: number): Promise<boolean> {
  const queue = currentServices().jobQueue;
  if (!queue?.has(MAIL_JOB)) return false;
  const options = after ? { startAfter: after, retryLimit: RETRY.retryLimit - 1 } : {};
  return (await queue.boss.send(MAIL_JOB, { id }, { ...options, singletonKey: String(id), db: overTransaction(tx) })) !== null;
}

type Delivery = Pick<MailMessage, "to" | "subject" | "text" | "html" | "sensitive" | "attachments">;

function deliveryOf(m: typeof mailOutbox.$inferSelect): Delivery {
  return { to: m.to_address, subject: m.subject, text: m.text_body, html: m.html_body, sensitive: m.sensitive, attachments: m.attachments };
}

/**
 * One SMTP try of a claimed message (status `sending`), written to its row:
 * sent (a sensitive body removed), or failed with the reason, counted in
 * `attempts`. `nextTry` is when it will be tried again (null: not). `forJob`:
 * tried by its job (JOB_TIMEOUTS), not for a person who waits.
 */
async function deliver(
  id: number,
  message: Delivery,
  url: string,
  nextTry: (permanent: boolean) => Date | null,
  forJob = false,
): Promise<MailResult> {
  const now = new Date();
  try {
    await transport(url, forJob).sendMail({
      from: mailFrom(),
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      attachments: message.attachments?.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.encoding === "base64" ? Buffer.from(a.content, "base64") : a.content,
      })),
    });
  } catch (error) {
    // A 5xx answer is permanent (RFC 5321 §4.2.1: a bad address, a refused
    // recipient): kept as failed with no next try; "Send again" still can.
    const permanent = isPermanentSmtpFailure(error);
    const reason = describeSmtpError(error);
    const [row] = await db()
      .update(mailOutbox)
      .set({
        status: "failed",
        attempts: sql`${mailOutbox.attempts} + 1`,
        last_error: `${permanent ? PERMANENT_PREFIX : ""}${reason}`,
        last_attempt_at: now,
        next_attempt_at: nextTry(permanent),
      })
      .where(eq(mailOutbox.id, id))
      .returning({ attempts: mailOutbox.attempts });
    log("error", permanent ? "mail refused for good: kept in the outbox, not retried" : "mail not sent: kept in the outbox to retry", {
      id,
      attempts: row?.attempts ?? 1,
      error: reason,
    });
    return { id, status: "failed", error: reason, ...(permanent ? { permanent } : {}) };
  }
  await db()
    .update(mailOutbox)
    .set({
      status: "sent",
      sent_at: now,
      last_attempt_at: now,
      last_error: null,
      next_attempt_at: null,
      attempts: sql`${mailOutbox.attempts} + 1`,
      ...(message.sensitive ? { text_body: DELIVERED_BODY_REMOVED, html_body: `<p>${DELIVERED_BODY_REMOVED}</p>` } : {}),
    })
    .where(eq(mailOutbox.id, id));
  log("info", "mail sent", { id });
  return { id, status: "sent" };
}

/**
 * Keeps messages made after the caller answered, one at a time: a public
 * form's answer neither waits for the message to be made and kept nor tells,
 * by its time, whether one was. The job queue sends them. One at a time (a
 * few database writes each, no SMTP exchange), so a message's making (the
 * sign-up cap's count) sees the rows of those kept before it.
 */
const LATER_AT_ONCE = 1;
const later = { running: 0, waiting: [] as Array<() => Promise<unknown>>, settled: [] as Array<() => void> };

function pumpLater() {
  while (later.running < LATER_AT_ONCE && later.waiting.length) {
    const job = later.waiting.shift()!;
    later.running++;
    void job()
      .catch((error: unknown) =>
        log("error", "mail not kept: it was to be kept after the answer", { error: (error as Error).message.slice(0, 200) }),
      )
      .finally(() => {
        later.running--;
        pumpLater();
      });
  }
  if (!later.running && !later.waiting.length) for (const done of later.settled.splice(0)) done();
}

/**
 * Makes and keeps a message (with its job) after the caller has answered.
 * A message the process dies holding before it reached the outbox is lost
 * (the person asks again); one in the outbox is sent by its job.
 */
export function sendMailLater(make: () => Promise<MailMessage>): void {
  later.waiting.push(async () => queueMail(await make()));
  pumpLater();
}

/** Resolves once every message handed to `sendMailLater` is kept (tests, shutdown). */
export function mailSettled(): Promise<void> {
  if (!later.running && !later.waiting.length) return Promise.resolve();
  return new Promise((resolve) => later.settled.push(resolve));
}

/**
 * Keeps a message in the outbox, inside the caller's transaction (`tx`), with
 * the job that delivers it (`mail-send`, keyed by the row's id) when SMTP is
 * configured: the message and its job exist exactly when the change that made
 * them is committed (an event reminder claimed). `sendingNow`: the caller
 * tries it at once after the commit (`sendKeptMail`), so the job waits a
 * retry delay and is the retry.
 */
export async function keepMail(tx: Db, message: MailMessage, options: { sendingNow?: boolean } = {}): Promise<number> {
  const toSend = !message.hold && !!getEnv().SMTP_URL;
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      kind: message.kind,
      to_address: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      sensitive: !!message.sensitive,
      attachments: message.attachments ?? [],
      status: message.hold ? "held" : toSend ? "queued" : "outbox",
    })
    .returning({ id: mailOutbox.id });
  if (toSend) await queueDelivery(tx, row.id, options.sendingNow ? RETRY.retryDelay : undefined);
  return row.id;
}

/** Keeps a message for its job to send (or held, or in the outbox without SMTP); nobody waits on the SMTP server. */
export async function queueMail(message: MailMessage): Promise<number> {
  return db().transaction((tx) => keepMail(tx, message));
}

/** Claims a message for one try: `sending`, with the time of the try. Returns the row, or undefined when it was not in `from`. */
async function claimMail(id: number, from: string[], now = new Date()) {
  const [claimed] = await db()
    .update(mailOutbox)
    .set({ status: "sending", last_attempt_at: now })
    .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, from)))
    .returning();
  return claimed;
}

/**
 * Tries a message kept by `keepMail(…, { sendingNow: true })` now, when SMTP
 * is configured (else it stays in the outbox, or held): for a person who
 * waits on the answer. Not sent now, its job tries again after the retry delay.
 */
export async function sendKeptMail(id: number, message: MailMessage): Promise<MailResult> {
  if (message.hold) {
    log("warn", "mail held: the site-wide cap on sign-up e-mails an hour is reached (owners see it on the dashboard)", {
      id,
      kind: message.kind,
    });
    return { id, status: "held" };
  }
  const url = getEnv().SMTP_URL;
  if (!url) {
    log("info", "mail kept in the outbox: no SMTP_URL is set, so nothing was sent (owners read it under Dashboard → Outbox)", {
      id,
      kind: message.kind,
    });
    return { id, status: "outbox" };
  }
  const now = new Date();
  if (!(await claimMail(id, ["queued"], now))) return { id, status: "queued" };
  return deliver(id, message, url, (permanent) => (permanent ? null : new Date(now.getTime() + SENDING_FOR_MS)));
}

/** Keeps the message in the outbox, then tries it now when SMTP is configured (its job retries it). */
export async function sendMail(message: MailMessage): Promise<MailResult> {
  const id = await db().transaction((tx) => keepMail(tx, message, { sendingNow: true }));
  return sendKeptMail(id, message);
}

/** A mail-send job in words for Failed jobs: the message's subject and address (the Outbox shows both to owners). */
export async function describeMailJob(data: unknown): Promise<string | null> {
  const id = jobRowId(data);
  if (id === null) return null;
  const [m] = await db().select({ subject: mailOutbox.subject, to: mailOutbox.to_address }).from(mailOutbox).where(eq(mailOutbox.id, id));
  return m ? `“${m.subject}” to ${m.to} (Outbox message ${id})` : `Outbox message ${id}, no longer in the Outbox`;
}

/**
 * The `mail-send` job: one try of message `id`, as pg-boss runs it (its try
 * `retryCount` of `retryLimit` retries). Sent, refused for good (a 5xx: not
 * retried), or no longer to send (sent meanwhile, SMTP_URL removed): the job
 * completes. Failed for now: the job fails, and pg-boss tries it again with
 * the one retry policy, or after its last try puts it on the dead-letter
 * queue (Failed jobs), the row staying `failed` with its last error.
 */
export async function runMailJob(data: unknown, attempt: Attempt = { retryCount: 0, retryLimit: 0 }) {
  const id = jobRowId(data);
  if (id === null) return { sent: 0 };
  const url = getEnv().SMTP_URL;
  if (!url) {
    await db()
      .update(mailOutbox)
      .set({ status: "outbox", next_attempt_at: null })
      .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, ["queued", "failed", "sending"])));
    return { sent: 0 };
  }
  const now = new Date();
  const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, id));
  if (!row) return { sent: 0 };
  if (row.status === "sending" && row.last_attempt_at && now.getTime() - row.last_attempt_at.getTime() < SENDING_FOR_MS) {
    // Its sender (a person's request) is in the SMTP exchange now: this job is its retry.
    throw new Error("being sent by another process: tried again later");
  }
  const retriable = row.status === "failed" && !row.last_error?.startsWith(PERMANENT_PREFIX);
  if (!["queued", "sending"].includes(row.status) && !retriable) return { sent: 0 };
  const claimed = await claimMail(id, [row.status], now);
  if (!claimed) return { sent: 0 };
  const last = attempt.retryCount >= attempt.retryLimit;
  const result = await deliver(
    id,
    deliveryOf(claimed),
    url,
    (permanent) => (permanent || last ? null : new Date(now.getTime() + retryDelayMs(attempt.retryCount + 1))),
    true,
  );
  if (result.status === "failed" && !result.permanent) throw new Error(result.error);
  return { sent: result.status === "sent" ? 1 : 0 };
}

/**
 * Gives a job to the messages that should have one and may not (the
 * `outbox-release` job, every minute): released from a hold, kept while no
 * job queue ran (a script), or left `sending` or due long ago by a job that
 * is gone. The queue keeps one job a message (its key), so a message that
 * has one gets no second. Returns how many jobs were sent.
 */
export async function queueStrandedMail(now = new Date()): Promise<number> {
  const queue = currentServices().jobQueue;
  if (!queue?.has(MAIL_JOB) || !getEnv().SMTP_URL) return 0;
  const long = new Date(now.getTime() - 20 * 60_000);
  const rows = await db()
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      or(
        eq(mailOutbox.status, "queued"),
        and(eq(mailOutbox.status, "failed"), lt(mailOutbox.next_attempt_at, long)),
        and(eq(mailOutbox.status, "sending"), lt(sql`coalesce(${mailOutbox.last_attempt_at}, ${mailOutbox.created_at})`, long)),
      ),
    )
    .orderBy(asc(mailOutbox.id))
    .limit(500);
  let sent = 0;
  for (const { id } of rows) if (await queueDelivery(db(), id)) sent++;
  return sent;
}

/**
 * Sends one kept message now (an owner's "send again"); failed and outbox
 * messages alike. With an `actor`, the claim of the row and its audit entry
 * are one transaction: when its job (or another owner) took the message
 * first, nothing is claimed and nothing recorded (undefined). Not sent for
 * now, it gets a job that tries it again.
 */
export async function resendMail(id: number, actor?: Actor): Promise<MailResult | undefined> {
  const url = getEnv().SMTP_URL;
  const now = new Date();
  const m = await db().transaction(async (tx) => {
    const [claimed] = await tx
      .update(mailOutbox)
      .set(url ? { status: "sending", last_attempt_at: now } : { status: "outbox" })
      .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, ["failed", "outbox"])))
      .returning();
    if (claimed && actor) {
      await recordAudit(tx, actor, {
        action: "mail",
        itemType: "mail",
        itemId: id,
        itemLabel: `${claimed.subject} → ${claimed.to_address}`,
        changes: { send: { after: "again" } },
      });
    }
    return claimed;
  });
  if (!m) return undefined;
  if (!url) return { id, status: "outbox" };
  const result = await deliver(id, deliveryOf(m), url, (permanent) => (permanent ? null : new Date(now.getTime() + SENDING_FOR_MS)));
  if (result.status === "failed" && !result.permanent) await queueDelivery(db(), id, RETRY.retryDelay);
  return result;
}

/** Closes the SMTP connections (shutdown, tests). */
export function closeMail() {
  const held = holder();
  held.transport?.transport.close();
  held.transport = undefined;
  held.jobTransport?.transport.close();
  held.jobTransport = undefined;
  if (held.mailingSender) stopMailingSender(held.mailingSender);
}

/**
 * A message to one subscriber (a mailing's delivery), whole (mail-skeleton.ts
 * fills it in): sent directly, not kept in the outbox (its queue is
 * `mailing_deliveries`).
 */
export type SubscriberMailMessage = { to: string; raw: string };

export type SubscriberMailResult =
  | { status: "sent" }
  /** No SMTP_URL: nothing can be sent. */
  | { status: "no-smtp" }
  /** A 4xx answer or no answer: retried later. */
  | { status: "temporary"; error: string }
  /** A 5xx answer (bad mailbox): the address is marked bounced. */
  | { status: "permanent"; error: string };

/** Sends one subscriber message to the same SMTP server (SMTP_URL) as every other message, over the mailings' pool of connections on their own thread. */
export async function sendSubscriberMail(message: SubscriberMailMessage): Promise<SubscriberMailResult> {
  const url = getEnv().SMTP_URL;
  if (!url) return { status: "no-smtp" };
  const failure = await sendOnMailingThread(url, { from: mailFrom(), to: message.to }, message.raw);
  if (!failure) return { status: "sent" };
  const reason = describeSmtpError(failure);
  return isPermanentSmtpFailure(failure) ? { status: "permanent", error: reason } : { status: "temporary", error: reason };
}

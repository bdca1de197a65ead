/**
 * The one mail layer: every message the site sends (staff invitations,
 * password resets, enquiry notifications…) goes through `sendMail`.
 *
 * Each message is first kept in the `mail_outbox` table. With `SMTP_URL` it
 * is then sent through nodemailer; a refused or unreachable SMTP server
 * leaves it `failed` in the outbox, and the `mail-retry` job retries it with
 * the site's one backoff (jobs/retry.ts, up to MAX_ATTEMPTS). Without SMTP (the embedded default) it stays in the
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
import { and, asc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import { FIRM } from "~/config/firm";
import { recordAudit, type Actor } from "../db/audit";
import { db, type Db } from "../db/client";
import { mailOutbox, type MailAttachment } from "../db/schema";
import { getEnv, type Env } from "../env";
import { MAX_ATTEMPTS, retryDelayMs } from "../jobs/retry";
import { log } from "../log";
import { processServices } from "../services";

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
/** The transports of this process, kept in its services (services.ts): made on first use, closed at shutdown. */
export type MailTransports = { transport?: Held; mailingSender?: MailingSender };
const holder = (): MailTransports => processServices().mail;

/** SMTP connections a mailing to subscribers keeps open and sends over at once. */
export const MAILING_CONNECTIONS = 4;
/** Short timeouts: a staff member is waiting on the answer; a retry comes later anyway. */
const TIMEOUTS = { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 10000 };

/** Staff mail and the outbox: a connection a message, over the transport kept for `url` (made again when SMTP_URL changes). */
function transport(url: string): Transporter {
  const held = holder().transport;
  if (held?.url === url) return held.transport;
  held?.transport.close();
  const made = nodemailer.createTransport({ url, ...TIMEOUTS });
  holder().transport = { url, transport: made };
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

async function deliver(
  id: number,
  message: Pick<MailMessage, "to" | "subject" | "text" | "html" | "sensitive" | "attachments">,
  url: string,
): Promise<MailResult> {
  const now = new Date();
  try {
    await transport(url).sendMail({
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
        next_attempt_at: null,
      })
      .where(eq(mailOutbox.id, id))
      .returning({ attempts: mailOutbox.attempts });
    const attempts = row?.attempts ?? 1;
    if (!permanent && attempts < MAX_ATTEMPTS) {
      await db()
        .update(mailOutbox)
        .set({ next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)) })
        .where(eq(mailOutbox.id, id));
    }
    log("error", permanent ? "mail refused for good: kept in the outbox, not retried" : "mail not sent: kept in the outbox to retry", {
      id,
      attempts,
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
 * Deliveries started after the caller answered, a few at a time (each is one
 * SMTP connection): a public form's answer neither waits for an SMTP exchange
 * nor tells, by its time, whether a message was sent.
 */
const LATER_AT_ONCE = 4;
const later = { running: 0, waiting: [] as Array<() => Promise<unknown>>, settled: [] as Array<() => void> };

function pumpLater() {
  while (later.running < LATER_AT_ONCE && later.waiting.length) {
    const job = later.waiting.shift()!;
    later.running++;
    void job()
      .catch((error: unknown) =>
        log("error", "mail not kept: it was to be sent after the answer", { error: (error as Error).message.slice(0, 200) }),
      )
      .finally(() => {
        later.running--;
        pumpLater();
      });
  }
  if (!later.running && !later.waiting.length) for (const done of later.settled.splice(0)) done();
}

/**
 * Makes, keeps (outbox) and sends a message after the caller has answered.
 * A message the process dies holding before it reached the outbox is lost
 * (the person asks again); one in the outbox is retried by the Outbox job.
 */
export function sendMailLater(make: () => Promise<MailMessage>): void {
  later.waiting.push(async () => sendMail(await make()));
  pumpLater();
}

/** Resolves once every message handed to `sendMailLater` is kept and tried (tests, shutdown). */
export function mailSettled(): Promise<void> {
  if (!later.running && !later.waiting.length) return Promise.resolve();
  return new Promise((resolve) => later.settled.push(resolve));
}

/**
 * Keeps a message in the outbox, inside the caller's transaction (`tx`): the
 * message exists exactly when the change that made it is committed (an event
 * reminder claimed). Send it after the commit with `sendKeptMail`; one left
 * "sending" by a crash in between is retried (`recoverInterruptedMail`).
 */
export async function keepMail(tx: Db, message: MailMessage): Promise<number> {
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
      status: message.hold ? "held" : getEnv().SMTP_URL ? "sending" : "outbox",
    })
    .returning({ id: mailOutbox.id });
  return row.id;
}

/** Sends a message kept by `keepMail` when SMTP is configured (else it stays in the outbox, or held). */
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
  return deliver(id, message, url);
}

/** Keeps the message in the outbox, then sends it when SMTP is configured. */
export async function sendMail(message: MailMessage): Promise<MailResult> {
  return sendKeptMail(await keepMail(db(), message), message);
}

/** What the Outbox job sends when due: failed messages, and those released from a hold. */
const RETRIED = ["failed", "queued"];

/**
 * Sends the failed messages that are due, and those released from a hold
 * (the `mail-retry` job, every minute; one run at a time). Returns how many
 * were delivered.
 */
export async function retryFailedMail(now = new Date()): Promise<number> {
  const url = getEnv().SMTP_URL;
  if (!url) return 0;
  const due = await db()
    .select()
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.status, RETRIED), lt(mailOutbox.attempts, MAX_ATTEMPTS), lte(mailOutbox.next_attempt_at, now)))
    .orderBy(asc(mailOutbox.id))
    .limit(20);
  let delivered = 0;
  for (const m of due) {
    // Claim it, so a manual "send again" at the same moment does not send it twice.
    const claimed = await db()
      .update(mailOutbox)
      .set({ status: "sending" })
      .where(and(eq(mailOutbox.id, m.id), inArray(mailOutbox.status, RETRIED)))
      .returning({ id: mailOutbox.id });
    if (!claimed.length) continue;
    const result = await deliver(
      m.id,
      { to: m.to_address, subject: m.subject, text: m.text_body, html: m.html_body, sensitive: m.sensitive, attachments: m.attachments },
      url,
    );
    if (result.status === "sent") delivered++;
  }
  return delivered;
}

/**
 * Sends one kept message now (an owner's "send again"); failed and outbox
 * messages alike. With an `actor`, the claim of the row and its audit entry
 * are one transaction: when the retry job (or another owner) took the message
 * first, nothing is claimed and nothing recorded (undefined).
 */
export async function resendMail(id: number, actor?: Actor): Promise<MailResult | undefined> {
  const url = getEnv().SMTP_URL;
  const m = await db().transaction(async (tx) => {
    const [claimed] = await tx
      .update(mailOutbox)
      .set({ status: url ? "sending" : "outbox" })
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
  return deliver(
    id,
    { to: m.to_address, subject: m.subject, text: m.text_body, html: m.html_body, sensitive: m.sensitive, attachments: m.attachments },
    url,
  );
}

/** Messages sent before the process crashed mid-send stay "sending": make them retryable. */
export async function recoverInterruptedMail(olderThanMs = getEnv().MAIL_SENDING_TIMEOUT_SECONDS * 1000, now = new Date()): Promise<void> {
  await db()
    .update(mailOutbox)
    .set({ status: "failed", last_error: "interrupted while sending", next_attempt_at: now })
    .where(and(eq(mailOutbox.status, "sending"), lt(mailOutbox.created_at, new Date(now.getTime() - olderThanMs))));
}

/** Closes the SMTP connections (shutdown, tests). */
export function closeMail() {
  const held = holder();
  held.transport?.transport.close();
  held.transport = undefined;
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

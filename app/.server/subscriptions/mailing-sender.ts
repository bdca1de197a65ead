/**
 * Sends mailings (decisions 0024 and 0026): each delivery (a row of
 * `mailing_deliveries`) has its own pg-boss job (`mailing-delivery`, keyed
 * by the row, written with the rows in the transaction that queues the
 * mailing), whose retry limit, backoff, heartbeat and dead letter are the
 * job queue's. The paced `mailing-send` job (one run active at a time on all
 * instances) fetches those jobs in batches and sends them.
 *
 * - Each delivery is checked against the subscriber just before sending: an
 *   address withdrawn, bounced or erased since the queue was made is skipped.
 * - Paced by SUBSCRIBER_MAIL_RATE (messages a second, this instance), over
 *   MAILING_CONNECTIONS SMTP connections at once; the messages due within a
 *   tick of PACE_TICK_MS go together (`paceMs`).
 * - The row is the guard against a second send: a batch's rows are taken
 *   `queued` → `sending` in one statement just before their SMTP exchanges
 *   (`takeDeliveries`); a job that finds its row sent, finished, or taken by
 *   a sender less than SENDING_FOR_MS ago sends nothing (it completes, or
 *   fails to come back later), and a sender never sends a row it took more
 *   than half of SENDING_FOR_MS ago (it puts it back). pg-boss refreshes the heartbeats of its own workers' jobs only,
 *   not of fetched ones: the run beats its batch's (`touch`) until each is
 *   settled, so a slow batch is never failed and retried while it sends.
 * - A 4xx (or no answer) puts the row back `queued` and fails the job:
 *   pg-boss tries it again with the site's one backoff (jobs/retry.ts); the
 *   last failed try leaves the row `failed` and the job on the dead-letter
 *   queue (Failed jobs, in words). A 5xx marks the row and the address
 *   bounced and completes the job: no retry.
 * - A killed instance's jobs are failed by their missed heartbeat and tried
 *   again on any instance; their rows, left `sending` for longer than
 *   SENDING_FOR_MS, are taken then. A message the SMTP server had not yet
 *   accepted is sent then, once. The one repeat possible is a message
 *   accepted in the instant between the server's answer and its row's
 *   update: it goes again with the same Message-ID, which receiving systems
 *   use to drop a repeat.
 * - Accepted messages' rows are written in groups (`sentRows`: up to
 *   SENT_GROUP rows or SENT_GROUP_MS, one UPDATE), then their jobs completed,
 *   not one statement each, to spare PostgreSQL and the thread that serves
 *   the pages a commit a message. That instant is then at most SENT_GROUP_MS
 *   and the write (a kill in it repeats up to a group); the other outcomes
 *   are rare and written at once.
 * The article is rendered and its MIME message compiled once per mailing and
 * run (mail-skeleton.ts); each recipient's address, links and Message-ID are
 * put in.
 */
import { eq } from "drizzle-orm";
import { isTopic, TOPIC_LABELS } from "~/lib/forms/subscribe";
import { cardSummary } from "../content/article-text";
import { getArticleById } from "../db/articles";
import type { JobWithMetadata, PgBoss } from "pg-boss";
import {
  closeFinishedMailings,
  getDeliveries,
  isMailable,
  finishDelivery,
  markDeliveriesSent,
  queueDueMailings,
  releaseDelivery,
  takeDeliveries,
  unfinishedDeliveryIds,
  type Delivery,
} from "../db/mailings";
import { db, type Db } from "../db/client";
import { HEARTBEAT_SECONDS, jobRowId, overTransaction } from "../jobs/queue";
import { RETRY } from "../jobs/retry";
import { currentServices } from "../services";
import { mailings } from "../db/schema";
import { getSubscribers, markBounced, type Subscriber } from "../db/subscribers";
import { getEnv } from "../env";
import { log } from "../log";
import { MAILING_CONNECTIONS, mailFrom, sendSubscriberMail } from "../mail/mail";
import { compileSkeleton, fillSkeleton, type MailSkeleton } from "../mail/mail-skeleton";
import { absoluteUrl } from "../http/site-url";
import { oneClickUrl, preferencesUrl } from "./links";
import { articleMessage, type RenderedMessage } from "./messages";

const PREFS = "https://placeholder.invalid/__preferences__";
const ONE_CLICK = "https://placeholder.invalid/__one_click__";

export type MailingArticle = { id: number; title: string; summary: string; slug: string; category: string; date: string };

export async function mailingArticle(articleId: number): Promise<MailingArticle | undefined> {
  const a = await getArticleById(articleId);
  if (!a) return undefined;
  return {
    id: a.id,
    title: a.title,
    summary: cardSummary({ summary: a.summary, excerpt: a.copy.slice(0, 4000) }),
    slug: a.slug,
    category: a.category,
    date: a.date,
  };
}

/** The article's message with placeholders where each recipient's links go. */
export async function articleTemplate(article: MailingArticle, options: { test?: boolean } = {}): Promise<RenderedMessage> {
  const topicLabel = isTopic(article.category) ? TOPIC_LABELS[article.category] : article.category === "events" ? "Events" : "Insights";
  return articleMessage(
    {
      title: article.title,
      summary: article.summary,
      url: absoluteUrl(`/post/${encodeURIComponent(article.slug)}`),
      topicLabel,
      date: article.date,
    },
    { preferencesUrl: PREFS, oneClickUrl: ONE_CLICK },
    options,
  );
}

/** Puts one subscriber's own links (preferences, one-click unsubscribe) where the template has placeholders. */
function linksFor(subscriber: { id: number; email: string }): (text: string) => string {
  const prefs = preferencesUrl(subscriber);
  const click = oneClickUrl(subscriber);
  return (text) => text.split(PREFS).join(prefs).split(ONE_CLICK).join(click);
}

export function personalise(
  template: RenderedMessage,
  subscriber: { id: number; email: string },
): RenderedMessage & { headers: Record<string, string> } {
  const fill = linksFor(subscriber);
  const headers = Object.fromEntries(Object.entries(template.headers ?? {}).map(([k, v]) => [k, fill(v)]));
  return { subject: template.subject, html: fill(template.html), text: fill(template.text), headers };
}

function messageId(mailingId: number, subscriberId: number): string {
  const host = new URL(getEnv().publicUrl).hostname;
  return `<mailing-${mailingId}-${subscriberId}@${host.includes(".") ? host : `${host}.localdomain`}>`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Messages are let go on ticks of this length: all those due within one tick go together. */
export const PACE_TICK_MS = 100;

/**
 * When message `n` (from 0) of a run may go, in ms after the run's start: no
 * sooner than n / rate seconds, rounded down to a tick. On average that is
 * the rate; within a tick the messages go one after another over the open
 * connections. A timer a message would wake the main thread, the mail thread
 * and the SMTP server for every message, and those wakes cost more CPU than
 * the messages themselves.
 */
export function paceMs(n: number, rate: number): number {
  return Math.floor((n * 1000) / rate / PACE_TICK_MS) * PACE_TICK_MS;
}

/** Accepted messages' rows are written together: this many at most, or after this long. */
export const SENT_GROUP = 25;
export const SENT_GROUP_MS = 100;

/** The job queue's queue of mailing deliveries: one job a delivery, keyed by its row, fetched in batches by `mailing-send` (jobs.ts). */
export const MAILING_DELIVERY_JOB = "mailing-delivery";

/**
 * A delivery taken by a sender is left to it this long before another try of
 * its job takes it again (its sender is then gone: killed, or its run failed).
 * Longer than any SMTP exchange of the mailings' transport (its timeouts,
 * mail.ts) and the write of its group.
 */
export const SENDING_FOR_MS = RETRY.retryDelay * 1000;

type DeliveryJob = JobWithMetadata<unknown>;

/**
 * The rows of accepted messages, written in groups by one statement each,
 * then their jobs completed. `flush()` writes what is waiting and resolves
 * when every group is written; it rejects with the first write that failed
 * (those rows stay `sending` and their jobs active: pg-boss fails them on
 * their heartbeat and their next try finds the row).
 */
function sentRows(settled: (jobs: DeliveryJob[]) => Promise<void>) {
  let waiting: Array<{ id: number; job: DeliveryJob }> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writes: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  /** Starts the write of what is waiting (after the writes before it). */
  function writeWaiting(): void {
    clearTimeout(timer);
    timer = undefined;
    if (!waiting.length) return;
    const group = waiting;
    waiting = [];
    writes = writes.then(() =>
      markDeliveriesSent(group.map((g) => g.id))
        .then(() => settled(group.map((g) => g.job)))
        .catch((error: unknown) => {
          failure ??= error instanceof Error ? error : new Error("the rows of sent messages could not be written", { cause: error });
        }),
    );
  }
  return {
    add(id: number, job: DeliveryJob) {
      waiting.push({ id, job });
      if (waiting.length >= SENT_GROUP) writeWaiting();
      else timer ??= setTimeout(writeWaiting, SENT_GROUP_MS);
    },
    async flush() {
      writeWaiting();
      await writes;
      if (failure) throw failure;
    },
  };
}

export type SendRun = {
  queued: number;
  /** Deliveries of an earlier version (or whose job is gone) given a job. */
  requeued: number;
  sent: number;
  skipped: number;
  bounced: number;
  retried: number;
  failed: number;
  /** Jobs whose row was already sent or finished, or being sent by another sender: nothing sent. */
  left: number;
};

/** Whether this process gave every unfinished delivery a job yet (its first run does). */
let strandedChecked = false;

/** Writes the jobs of deliveries `ids` (through `tx`: in the transaction that writes their rows). A delivery with a job gets no second (its key). */
async function queueDeliveryJobs(boss: PgBoss, tx: Db, ids: readonly number[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < ids.length; i += 5000) {
    const jobs = ids.slice(i, i + 5000).map((id) => ({ data: { id }, singletonKey: String(id) }));
    written += (await boss.insert(MAILING_DELIVERY_JOB, jobs, { db: overTransaction(tx) }))?.length ?? 0;
  }
  return written;
}

/** Gives a job to every delivery still to send that has none (queued by an earlier version, or its job gone). */
async function queueStrandedDeliveries(boss: PgBoss): Promise<number> {
  let requeued = 0;
  for (
    let after = 0, ids = await unfinishedDeliveryIds(5000);
    ids.length;
    after = ids.at(-1)!, ids = await unfinishedDeliveryIds(5000, after)
  )
    requeued += await queueDeliveryJobs(boss, db(), ids);
  return requeued;
}

/** Waiting mailings whose article is now public become deliveries, each with its job, in one transaction a mailing. */
export async function queueMailings(boss: PgBoss): Promise<number> {
  return queueDueMailings(async (tx, ids) => void (await queueDeliveryJobs(boss, tx, ids)));
}

/**
 * One run of the `mailing-send` job (its queue lets one run be active at a
 * time): queues what is due (rows and their jobs), then fetches the
 * deliveries' due jobs in batches and sends them until none is due or
 * `budgetMs` is spent, over MAILING_CONNECTIONS connections at once. Each
 * delivery's row is written once the SMTP server has answered it (accepted
 * ones in groups, all of them before the batch ends), then its job settled.
 * Without the job queue's `mailing-delivery` queue in this process nothing
 * is queued or sent.
 */
export async function runMailings(options: { budgetMs?: number; batch?: number } = {}): Promise<SendRun> {
  const run: SendRun = { queued: 0, requeued: 0, sent: 0, skipped: 0, bounced: 0, retried: 0, failed: 0, left: 0 };
  const queue = currentServices().jobQueue;
  if (!queue?.has(MAILING_DELIVERY_JOB)) return run;
  const boss = queue.boss;
  if (!strandedChecked) {
    run.requeued = await queueStrandedDeliveries(boss);
    strandedChecked = true;
  }
  run.queued = await queueMailings(boss);
  const env = getEnv();
  if (!env.SMTP_URL) return run; // Nothing can be sent: deliveries wait with their jobs.
  const rate = env.SUBSCRIBER_MAIL_RATE;
  const started = Date.now();
  const deadline = started + (options.budgetMs ?? 50_000);
  // Each mailing's message is compiled once a run (mail-skeleton.ts); each recipient's is filled in from it.
  // Promises, so that the MAILING_CONNECTIONS senders starting at once compile a mailing's message once.
  const templates = new Map<number, Promise<MailSkeleton | null>>();
  let count = 0;
  /** The jobs of the batch under way not settled yet: their heartbeats are beaten. */
  const open = new Map<string, DeliveryJob>();
  const attemptOf = (job: DeliveryJob) => ({ id: job.id, retryCount: job.retryCount });

  async function complete(jobs: DeliveryJob[]): Promise<void> {
    if (!jobs.length) return;
    await boss.complete(MAILING_DELIVERY_JOB, jobs.map(attemptOf));
    for (const job of jobs) open.delete(job.id);
  }

  async function fail(job: DeliveryJob, message: string): Promise<void> {
    await boss.fail(MAILING_DELIVERY_JOB, attemptOf(job), { message });
    open.delete(job.id);
  }

  const sent = sentRows(complete);

  async function compileFor(mailingId: number): Promise<MailSkeleton | null> {
    const [mailing] = await db().select().from(mailings).where(eq(mailings.id, mailingId));
    const article = mailing ? await mailingArticle(mailing.article_id) : undefined;
    const template = article ? await articleTemplate(article) : undefined;
    return template ? compileSkeleton({ from: mailFrom(), ...template, headers: template.headers ?? {} }) : null;
  }

  function templateFor(mailingId: number): Promise<MailSkeleton | null> {
    let template = templates.get(mailingId);
    if (!template) templates.set(mailingId, (template = compileFor(mailingId)));
    return template;
  }

  async function deliver(
    job: DeliveryJob,
    d: Delivery | undefined,
    subscriber: Subscriber | undefined,
    take: { ids: Set<number>; at: Date },
  ): Promise<void> {
    // The row is gone (its mailing deleted), or already sent, skipped or bounced (a try after a lost heartbeat): nothing
    // to send. A `failed` row (its last try failed) is sent again by a fresh job: Try again on Failed jobs.
    if (!d || !["queued", "sending", "failed"].includes(d.status)) {
      await complete([job]);
      run.left++;
      return;
    }
    // Not taken: being sent by another sender right now (or changed meanwhile). Its job comes back later and sees.
    if (!take.ids.has(d.id)) {
      await fail(job, "being sent by another sender: tried again later");
      run.left++;
      return;
    }
    // Withdrawn, bounced, erased, or implied consent ended since the queue was made: not sent.
    if (!subscriber || !isMailable(subscriber)) {
      await finishDelivery(d.id, { status: "skipped" });
      await complete([job]);
      run.skipped++;
      return;
    }
    const template = await templateFor(d.mailing_id);
    if (!template) {
      await finishDelivery(d.id, { status: "skipped", error: "the article no longer exists" });
      await complete([job]);
      run.skipped++;
      return;
    }
    const wait = started + paceMs(count++, rate) - Date.now();
    if (wait > 0) await sleep(wait);
    // A batch so slow that its take nears SENDING_FOR_MS (another try may take the row after it): not sent by this
    // sender; the row goes back (if still this take's) and its job is tried again later. On the job's last try the
    // row is `failed` instead: a dead letter whose row waited `queued` would keep its mailing "sending" for good.
    if (Date.now() - take.at.getTime() > SENDING_FOR_MS / 2) {
      const last = job.retryCount >= job.retryLimit;
      await releaseDelivery(d.id, take.at, last ? { error: "its batch took too long to send" } : undefined);
      await fail(job, "its batch took too long to send: tried again later");
      if (last) run.failed++;
      else run.left++;
      return;
    }
    const raw = fillSkeleton(template, {
      to: subscriber.email,
      messageId: messageId(d.mailing_id, subscriber.id),
      fill: linksFor(subscriber),
    });
    const result = await sendSubscriberMail({ to: subscriber.email, raw });
    if (result.status === "sent") {
      sent.add(d.id, job);
      run.sent++;
    } else if (result.status === "permanent") {
      await finishDelivery(d.id, { status: "bounced", error: result.error });
      await markBounced(subscriber.id, result.error);
      await complete([job]);
      run.bounced++;
    } else {
      // A 4xx or no answer (or SMTP_URL removed meanwhile): pg-boss tries the job again; after its last try it is a dead letter.
      const error = result.status === "temporary" ? result.error : "no SMTP server";
      const last = job.retryCount >= job.retryLimit;
      await finishDelivery(d.id, { status: last ? "failed" : "queued", error });
      await fail(job, error);
      if (last) run.failed++;
      else run.retried++;
    }
  }

  /** Sends one fetched batch, beating its jobs' heartbeats until each is settled (pg-boss does not for fetched jobs). */
  async function sendBatch(jobs: DeliveryJob[]): Promise<void> {
    for (const job of jobs) open.set(job.id, job);
    const beatSeconds = Math.min(...jobs.map((j) => j.heartbeatSeconds ?? HEARTBEAT_SECONDS));
    const beat = setInterval(
      () => {
        if (open.size) void boss.touch(MAILING_DELIVERY_JOB, [...open.values()].map(attemptOf)).catch(() => {});
      },
      Math.max(200, (beatSeconds * 1000) / 2),
    );
    try {
      const rows = await getDeliveries(jobs.map((j) => jobRowId(j.data) ?? 0));
      const people = await getSubscribers([...new Set([...rows.values()].map((d) => d.subscriber_id))]);
      // The batch's rows taken in one statement, before its SMTP exchanges (a statement a message cost more than they did).
      const at = new Date();
      const take = { at, ids: await takeDeliveries([...rows.keys()], new Date(at.getTime() - SENDING_FOR_MS), at) };
      const waiting = [...jobs];
      await Promise.all(
        Array.from({ length: MAILING_CONNECTIONS }, async () => {
          for (let job = waiting.shift(); job; job = waiting.shift()) {
            const d = rows.get(jobRowId(job.data) ?? 0);
            try {
              await deliver(job, d, d ? people.get(d.subscriber_id) : undefined, take);
            } catch (error) {
              // Its row stays as it is (a row left `sending` is taken by the job's next try after SENDING_FOR_MS).
              log("error", "mailing delivery failed", { delivery: d?.id, error: (error as Error).message });
              await fail(job, (error as Error).message).catch(() => {});
            }
          }
        }),
      );
    } finally {
      // Every accepted message's row written, and its job completed, before the batch ends, whatever ended it.
      await sent.flush().finally(() => clearInterval(beat));
    }
  }

  while (Date.now() < deadline) {
    const jobs = await boss.fetch(MAILING_DELIVERY_JOB, {
      batchSize: Math.min(options.batch ?? 50, Math.max(MAILING_CONNECTIONS, rate)),
      includeMetadata: true,
    });
    if (!jobs.length) break;
    await sendBatch(jobs);
  }
  await closeFinishedMailings();
  if (run.sent + run.bounced + run.failed + run.requeued + run.left) log("info", "mailing deliveries", run);
  return run;
}

/** The `mailing-delivery` job's run is never called: its jobs are fetched and settled by `runMailings`. */
export function deliveryFetchedInBatches(): never {
  throw new Error("mailing-delivery jobs are sent by the mailing-send job's runs, in batches");
}

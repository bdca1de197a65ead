/**
 * Sends mailings (decision 0024): the `mailing-send` job of the job queue
 * (pg-boss, one run active at a time on all instances; decision 0026); the
 * claims themselves use FOR UPDATE SKIP LOCKED, so two senders never take the
 * same delivery, and each claim is its own short statement.
 *
 * - Each delivery is checked against the subscriber just before sending: an
 *   address withdrawn, bounced or erased since the queue was made is skipped.
 * - Paced by SUBSCRIBER_MAIL_RATE (messages a second, this instance), over
 *   MAILING_CONNECTIONS SMTP connections at once; the messages due within a
 *   tick of PACE_TICK_MS go together (`paceMs`).
 * - A 4xx (or no answer) is retried with the site's one backoff
 *   (jobs/retry.ts), at most MAX_ATTEMPTS times; a 5xx marks the address
 *   bounced.
 * - A killed instance leaves its claimed deliveries `sending`; the next run
 *   (any instance, once the killed run's heartbeat is missed) puts them back
 *   in the queue.
 *   A message the SMTP server had not yet accepted is sent then, once. The
 *   one repeat possible is a message accepted in the instant between the
 *   server's answer and its row's update: it goes again with the same
 *   Message-ID, which receiving systems use to drop a repeat.
 * - Accepted messages' rows are written in groups (`sentRows`: up to
 *   SENT_GROUP rows or SENT_GROUP_MS, one UPDATE), not one statement each,
 *   to spare PostgreSQL and the thread that serves the pages a commit a
 *   message. That instant is then at most SENT_GROUP_MS and the write (a
 *   kill in it repeats up to a group); the other outcomes are rare and
 *   written at once.
 * The article is rendered and its MIME message compiled once per mailing and
 * run (mail-skeleton.ts); each recipient's address, links and Message-ID are
 * put in.
 */
import { eq } from "drizzle-orm";
import { isTopic, TOPIC_LABELS } from "~/lib/forms/subscribe";
import { cardSummary } from "../content/article-text";
import { getArticleById } from "../db/articles";
import {
  claimDeliveries,
  closeFinishedMailings,
  isMailable,
  finishDelivery,
  markDeliveriesSent,
  queueDueMailings,
  requeueOrphanedDeliveries,
  type Delivery,
} from "../db/mailings";
import { db } from "../db/client";
import { MAX_ATTEMPTS, retryDelayMs } from "../jobs/retry";
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

/**
 * The rows of accepted messages, written in groups by one statement each.
 * `flush()` writes what is waiting and resolves when every group is written;
 * it rejects with the first write that failed (those rows stay `sending` and
 * the next run puts them back in the queue).
 */
function sentRows() {
  let waiting: number[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writes: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  /** Starts the write of what is waiting (after the writes before it). */
  function writeWaiting(): void {
    clearTimeout(timer);
    timer = undefined;
    if (!waiting.length) return;
    const ids = waiting;
    waiting = [];
    writes = writes.then(() =>
      markDeliveriesSent(ids).catch((error: unknown) => {
        failure ??= error instanceof Error ? error : new Error("the rows of sent messages could not be written", { cause: error });
      }),
    );
  }
  return {
    add(id: number) {
      waiting.push(id);
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
  resumed: number;
  sent: number;
  skipped: number;
  bounced: number;
  retried: number;
  failed: number;
};

/**
 * One run of the `mailing-send` job (its queue lets one run be active at a
 * time): resumes what a killed run left `sending`, queues what is due,
 * then sends until nothing is due or `budgetMs` is spent, over
 * MAILING_CONNECTIONS connections at once. Each delivery's row is written
 * once the SMTP server has answered it (accepted ones in groups, all of them
 * before the run ends).
 */
export async function runMailings(options: { budgetMs?: number; batch?: number } = {}): Promise<SendRun> {
  const run: SendRun = { queued: 0, resumed: await requeueOrphanedDeliveries(), sent: 0, skipped: 0, bounced: 0, retried: 0, failed: 0 };
  run.queued = await queueDueMailings();
  const env = getEnv();
  if (!env.SMTP_URL) return run; // Nothing can be sent: deliveries wait in their queue.
  const rate = env.SUBSCRIBER_MAIL_RATE;
  const started = Date.now();
  const deadline = started + (options.budgetMs ?? 50_000);
  // Each mailing's message is compiled once a run (mail-skeleton.ts); each recipient's is filled in from it.
  // Promises, so that the MAILING_CONNECTIONS senders starting at once compile a mailing's message once.
  const templates = new Map<number, Promise<MailSkeleton | null>>();
  const sent = sentRows();
  let count = 0;

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

  async function deliver(d: Delivery, subscriber: Subscriber | undefined): Promise<void> {
    // Withdrawn, bounced, erased, or implied consent ended since the queue was made: not sent.
    if (!subscriber || !isMailable(subscriber)) {
      await finishDelivery(d.id, { status: "skipped" });
      run.skipped++;
      return;
    }
    const template = await templateFor(d.mailing_id);
    if (!template) {
      await finishDelivery(d.id, { status: "skipped", error: "the article no longer exists" });
      run.skipped++;
      return;
    }
    const wait = started + paceMs(count++, rate) - Date.now();
    if (wait > 0) await sleep(wait);
    const raw = fillSkeleton(template, {
      to: subscriber.email,
      messageId: messageId(d.mailing_id, subscriber.id),
      fill: linksFor(subscriber),
    });
    const result = await sendSubscriberMail({ to: subscriber.email, raw });
    if (result.status === "sent") {
      sent.add(d.id);
      run.sent++;
    } else if (result.status === "permanent") {
      await finishDelivery(d.id, { status: "bounced", error: result.error });
      await markBounced(subscriber.id, result.error);
      run.bounced++;
    } else if (result.status === "temporary" && d.attempts < MAX_ATTEMPTS) {
      await finishDelivery(d.id, { status: "retry", error: result.error, at: new Date(Date.now() + retryDelayMs(d.attempts)) });
      run.retried++;
    } else {
      await finishDelivery(d.id, { status: "failed", error: result.status === "temporary" ? result.error : "no SMTP server" });
      run.failed++;
    }
  }

  try {
    while (Date.now() < deadline) {
      const claimed = await claimDeliveries(Math.min(options.batch ?? 50, Math.max(MAILING_CONNECTIONS, rate)));
      if (!claimed.length) break;
      const people = await getSubscribers(claimed.map((d) => d.subscriber_id));
      const waiting = [...claimed];
      await Promise.all(
        Array.from({ length: MAILING_CONNECTIONS }, async () => {
          for (let d = waiting.shift(); d; d = waiting.shift()) await deliver(d, people.get(d.subscriber_id));
        }),
      );
    }
  } finally {
    // Every accepted message's row written before the run ends, whatever ended it.
    await sent.flush();
  }
  await closeFinishedMailings();
  if (run.sent + run.bounced + run.failed + run.resumed) log("info", "mailing deliveries", run);
  return run;
}

/**
 * Sends mailings (decision 0024): the `mailing-send` job of the scheduler,
 * run by whichever instance holds its turn; the claims themselves use FOR
 * UPDATE SKIP LOCKED, so two senders never take the same delivery.
 *
 * - Each delivery is checked against the subscriber just before sending: an
 *   address withdrawn, bounced or erased since the queue was made is skipped.
 * - Paced by SUBSCRIBER_MAIL_RATE (messages a second, this instance).
 * - A 4xx (or no answer) is retried with backoff, at most
 *   DELIVERY_MAX_ATTEMPTS times; a 5xx marks the address bounced.
 * - A delivery's Message-ID is the same on every attempt. Killed between the
 *   SMTP server's acceptance and the row's update, an instance leaves one
 *   delivery `sending`: it is sent again after STALE_CLAIM_MS with that same
 *   Message-ID (the only case of a repeat; receiving systems drop a repeated
 *   Message-ID). Everything claimed and not yet sent is simply sent later.
 * The article is rendered once per mailing; each recipient's links are put in.
 */
import { eq } from "drizzle-orm";
import { isTopic, TOPIC_LABELS } from "~/lib/forms/subscribe";
import { cardSummary } from "../article-text";
import { getArticleById } from "../db/articles";
import {
  claimDeliveries,
  closeFinishedMailings,
  DELIVERY_MAX_ATTEMPTS,
  deliveryRetryDelayMs,
  finishDelivery,
  queueDueMailings,
} from "../db/mailings";
import { db } from "../db/client";
import { mailings } from "../db/schema";
import { getSubscriber, markBounced } from "../db/subscribers";
import { getEnv } from "../env";
import { log } from "../log";
import { sendSubscriberMail } from "../mail";
import { absoluteUrl } from "../site-url";
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

export function personalise(
  template: RenderedMessage,
  subscriber: { id: number; email: string },
): RenderedMessage & { headers: Record<string, string> } {
  const prefs = preferencesUrl(subscriber);
  const click = oneClickUrl(subscriber);
  const fill = (s: string) => s.split(PREFS).join(prefs).split(ONE_CLICK).join(click);
  const headers = Object.fromEntries(Object.entries(template.headers ?? {}).map(([k, v]) => [k, fill(v)]));
  return { subject: template.subject, html: fill(template.html), text: fill(template.text), headers };
}

function messageId(mailingId: number, subscriberId: number): string {
  const host = new URL(getEnv().publicUrl).hostname;
  return `<mailing-${mailingId}-${subscriberId}@${host.includes(".") ? host : `${host}.localdomain`}>`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type SendRun = { queued: number; sent: number; skipped: number; bounced: number; retried: number; failed: number };

/** One run: queues what is due, then sends until nothing is due or `budgetMs` is spent. */
export async function runMailings(options: { budgetMs?: number; batch?: number } = {}): Promise<SendRun> {
  const run: SendRun = { queued: await queueDueMailings(), sent: 0, skipped: 0, bounced: 0, retried: 0, failed: 0 };
  const env = getEnv();
  if (!env.SMTP_URL) return run; // Nothing can be sent: deliveries wait in their queue.
  const rate = env.SUBSCRIBER_MAIL_RATE;
  const started = Date.now();
  const deadline = started + (options.budgetMs ?? 50_000);
  const templates = new Map<number, RenderedMessage | null>();
  let count = 0;
  while (Date.now() < deadline) {
    const claimed = await claimDeliveries(Math.min(options.batch ?? 20, Math.max(1, rate)));
    if (!claimed.length) break;
    for (const d of claimed) {
      const subscriber = await getSubscriber(d.subscriber_id);
      if (!subscriber || subscriber.status !== "confirmed") {
        await finishDelivery(d.id, { status: "skipped" });
        run.skipped++;
        continue;
      }
      if (!templates.has(d.mailing_id)) {
        const [mailing] = await db().select().from(mailings).where(eq(mailings.id, d.mailing_id));
        const article = mailing ? await mailingArticle(mailing.article_id) : undefined;
        templates.set(d.mailing_id, article ? await articleTemplate(article) : null);
      }
      const template = templates.get(d.mailing_id);
      if (!template) {
        await finishDelivery(d.id, { status: "skipped", error: "the article no longer exists" });
        run.skipped++;
        continue;
      }
      const message = personalise(template, subscriber);
      const result = await sendSubscriberMail({ to: subscriber.email, ...message, messageId: messageId(d.mailing_id, subscriber.id) });
      if (result.status === "sent") {
        await finishDelivery(d.id, { status: "sent" });
        run.sent++;
      } else if (result.status === "permanent") {
        await finishDelivery(d.id, { status: "bounced", error: result.error });
        await markBounced(subscriber.id, result.error);
        run.bounced++;
      } else if (result.status === "temporary" && d.attempts < DELIVERY_MAX_ATTEMPTS) {
        await finishDelivery(d.id, { status: "retry", error: result.error, at: new Date(Date.now() + deliveryRetryDelayMs(d.attempts)) });
        run.retried++;
      } else {
        await finishDelivery(d.id, { status: "failed", error: result.status === "temporary" ? result.error : "no SMTP server" });
        run.failed++;
      }
      count++;
      // Pacing: message n goes no sooner than n / rate seconds after the start.
      const wait = started + (count * 1000) / rate - Date.now();
      if (wait > 0) await sleep(wait);
    }
  }
  await closeFinishedMailings();
  if (run.sent + run.bounced + run.failed) log("info", "mailing deliveries", run);
  return run;
}

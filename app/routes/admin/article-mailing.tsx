/**
 * /dashboard/articles/:id/mailing: "Send to subscribers" for one article
 * (issue 31): choose the topics (the article's practice area by default),
 * see the e-mail (its own page: HTML and the plain-text part), send a test to
 * yourself, then send. The mailing goes out when the article is public, now
 * or at its scheduled time, and never twice for one article (decision 0024).
 * Recorded in Activity. Progress shows here and on the edit screen.
 *
 * Issue 42: the screen opens for anyone with the content permission, and a
 * test to oneself needs no more; sending to subscribers needs
 * "subscriber-mailing" (owners and admins). The first press of Send states
 * the exact number of recipients and asks once to confirm. Without SMTP_URL
 * the screen says that nothing is sent until an SMTP server is configured.
 */
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/article-mailing";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf, requirePermission, staffOf } from "~/.server/admin/guard.server";
import { can } from "~/.server/auth/roles";
import { getEnv } from "~/.server/env";
import { isRefusal, parseId, readForm, type FailureData } from "~/.server/http/form-post";
import { getArticleById } from "~/.server/db/articles";
import { mailingProgress, mailingRecipientCount, scheduleMailing } from "~/.server/db/mailings";
import { subscriberCounts } from "~/.server/db/subscribers";
import { sendMail } from "~/.server/mail/mail";
import { articleTemplate, mailingArticle, personalise } from "~/.server/subscriptions/mailing-sender";
import { AdminPage } from "~/components/admin/admin-page";
import { MailingProgressText } from "~/components/admin/mailing-progress";
import { btnPrimary, btnSecondary, labelClass, linkClass } from "~/components/admin/styles";
import { formValues } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import { isTopic, SUBSCRIPTION_TOPICS, TOPIC_LABELS, type SubscriptionTopic } from "~/lib/forms/subscribe";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

export const MAILING_MSG = {
  scheduled: "The mailing is set: it goes out when the article is published.",
  sending: "The mailing is queued: it is going out now.",
  /** Without SMTP_URL: nothing leaves the site (item 7 of issue 42). */
  noSmtp: "The mailing is queued, but nothing is sent until an SMTP server is configured (SMTP_URL). It goes out once one is.",
  noSmtpScreen: "No SMTP server is configured (SMTP_URL): nothing is sent to subscribers until one is. Messages wait in their queue.",
  already: "This article has already been sent to subscribers; it is never sent twice.",
  topics: "Choose at least one topic.",
  testSent: "A test was sent to you.",
  testKept: "The test is kept in the outbox (no SMTP server is set up).",
} as const;

export function defaultTopics(category: string): SubscriptionTopic[] {
  return isTopic(category) ? [category] : ["news"];
}

export function meta() {
  return [{ title: "Send to subscribers | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const article = id ? await mailingArticle(id) : undefined;
  if (!article) throw new Response("Not found", { status: 404 });
  const row = (await getArticleById(article.id))!;
  const progress = await mailingProgress(article.id);
  const counts = await subscriberCounts();
  return {
    article: { id: article.id, title: article.title, status: row.status },
    progress,
    topics: progress?.topics ?? defaultTopics(article.category),
    confirmedByTopic: counts.byTopic,
    mayMail: can(staffOf(context).role, "subscriber-mailing"),
    smtpConfigured: !!getEnv().SMTP_URL,
  };
}

/** The answer to the first press of Send: how many would receive it, to confirm once. */
type ConfirmData = { confirm: { topics: SubscriptionTopic[]; recipients: number } };

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.updateError);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = parseId(params.id);
  const article = id ? await mailingArticle(id) : undefined;
  if (!article) return data<FailureData>({ status: { tone: "error", text: MSG.articleLoadError } }, { status: 404 });
  const raw = formValues(form, ["topics"]);
  if (raw.intent === "test") {
    const staff = staffOf(context);
    const message = personalise(await articleTemplate(article, { test: true }), { id: 0, email: staff.email });
    const result = await sendMail({
      kind: "subscriber-test",
      to: staff.email,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    return data<FailureData>({
      status: { tone: "success", text: result.status === "outbox" ? MAILING_MSG.testKept : MAILING_MSG.testSent },
    });
  }
  // Sending to subscribers, unlike a test to oneself, is for owners and admins (403 otherwise, nothing done).
  requirePermission(context, "subscriber-mailing");
  const topics = [...new Set(raw.topics as string[])].filter(isTopic);
  if (!topics.length) return data<FailureData>({ status: { tone: "error", text: MAILING_MSG.topics } }, { status: 400 });
  if (raw.confirm !== "yes") return data<ConfirmData>({ confirm: { topics, recipients: await mailingRecipientCount(topics) } });
  if (!(await scheduleMailing(article.id, topics, actor, article.title))) {
    return data<FailureData>({ status: { tone: "error", text: MAILING_MSG.already } }, { status: 409 });
  }
  const row = await getArticleById(article.id);
  const text = row?.status !== "published" ? MAILING_MSG.scheduled : getEnv().SMTP_URL ? MAILING_MSG.sending : MAILING_MSG.noSmtp;
  return redirect(`/dashboard/articles/${article.id}/mailing`, { headers: await flashHeaders({ tone: "success", text }) });
}

function recipientsText(n: number): string {
  return n === 1 ? "1 confirmed subscriber" : `${n.toLocaleString("en-CA")} confirmed subscribers`;
}

export default function ArticleMailing({ loaderData }: Route.ComponentProps) {
  const { article, progress, topics, confirmedByTopic, mayMail, smtpConfigured } = loaderData;
  const answer = useActionData<typeof action>();
  const confirm = answer && "confirm" in answer ? answer.confirm : undefined;
  const locked = !!progress && progress.status !== "scheduled";
  const published = article.status === "published";
  return (
    <AdminPage title="Send to subscribers" back={{ to: `/dashboard/articles/${article.id}/edit`, label: "Edit article" }}>
      <p className="mb-6 text-lg">{article.title}</p>
      {smtpConfigured ? null : (
        <p className="mb-6 rounded border-2 border-brass bg-white px-4 py-3 font-semibold">{MAILING_MSG.noSmtpScreen}</p>
      )}
      {progress ? (
        <p className="mb-6 rounded border border-line bg-white px-4 py-3">
          <MailingProgressText articleId={article.id} progress={progress} articlePublic={published} />
        </p>
      ) : null}
      {locked ? null : confirm ? (
        <Form method="post" className="space-y-4 rounded border-2 border-accent bg-white px-4 py-4" aria-labelledby="mailing-confirm">
          <h2 id="mailing-confirm" className="text-xl font-semibold">
            {published ? "Send it now?" : "Send it when published?"}
          </h2>
          <p>
            {published ? (
              <>
                It goes to exactly <strong>{recipientsText(confirm.recipients)}</strong> of{" "}
                {confirm.topics.map((t) => TOPIC_LABELS[t]).join(", ")}, each once. It cannot be undone.
              </>
            ) : (
              <>
                It goes to the confirmed subscribers of {confirm.topics.map((t) => TOPIC_LABELS[t]).join(", ")} when the article is
                published: today that is exactly <strong>{recipientsText(confirm.recipients)}</strong>, each once.
              </>
            )}
          </p>
          {confirm.topics.map((t) => (
            <input key={t} type="hidden" name="topics" value={t} />
          ))}
          <input type="hidden" name="confirm" value="yes" />
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="schedule" className={btnPrimary}>
              {`Yes, send to ${recipientsText(confirm.recipients)}`}
            </button>
            <Link to={`/dashboard/articles/${article.id}/mailing`} className={btnSecondary}>
              Cancel
            </Link>
          </div>
        </Form>
      ) : (
        <Form method="post" className="space-y-4">
          <fieldset>
            <legend className={labelClass}>Topics</legend>
            <p className="text-sm text-muted">Confirmed subscribers of any chosen topic receive it, each once.</p>
            <div className="mt-2 flex flex-wrap gap-4">
              {SUBSCRIPTION_TOPICS.map((t) => (
                <label key={t} className="inline-flex items-center gap-2">
                  <input type="checkbox" name="topics" value={t} defaultChecked={topics.includes(t)} className="size-4" /> {TOPIC_LABELS[t]}{" "}
                  ({confirmedByTopic[t] ?? 0})
                </label>
              ))}
            </div>
          </fieldset>
          {mayMail ? null : <p className="text-sm">Sending to subscribers is for owners and admins; you may send a test to yourself.</p>}
          <div className="flex flex-wrap gap-3">
            {mayMail ? (
              <button type="submit" name="intent" value="schedule" className={btnPrimary}>
                {published ? "Send to subscribers now" : "Send when published"}
              </button>
            ) : null}
            <button type="submit" name="intent" value="test" className={btnSecondary}>
              Send a test to me
            </button>
          </div>
        </Form>
      )}
      <h2 className="mt-10 text-xl font-semibold">Preview</h2>
      <p className="mt-1 text-sm">
        <Link to={`/dashboard/articles/${article.id}/mailing/preview`} className={linkClass} reloadDocument target="_blank">
          Open the e-mail on its own page
        </Link>{" "}
        ·{" "}
        <Link to={`/dashboard/articles/${article.id}/mailing/preview?format=text`} className={linkClass} reloadDocument target="_blank">
          Plain-text part
        </Link>
      </p>
    </AdminPage>
  );
}

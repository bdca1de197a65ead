/**
 * /dashboard/articles/:id/mailing: "Send to subscribers" for one article
 * (issue 31): choose the topics (the article's practice area by default),
 * see the e-mail (its own page: HTML and the plain-text part), send a test to
 * yourself, then send. The mailing goes out when the article is public, now
 * or at its scheduled time, and never twice for one article (decision 0024).
 * Recorded in Activity. Progress shows here and on the edit screen.
 */
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/article-mailing";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import { isRefusal, parseId, readForm, type FailureData } from "~/.server/http/form-post";
import { getArticleById } from "~/.server/db/articles";
import { mailingProgress, scheduleMailing } from "~/.server/db/mailings";
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

export async function loader({ params }: Route.LoaderArgs) {
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
  };
}

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
  const topics = [...new Set(raw.topics as string[])].filter(isTopic);
  if (!topics.length) return data<FailureData>({ status: { tone: "error", text: MAILING_MSG.topics } }, { status: 400 });
  if (!(await scheduleMailing(article.id, topics, actor, article.title))) {
    return data<FailureData>({ status: { tone: "error", text: MAILING_MSG.already } }, { status: 409 });
  }
  const row = await getArticleById(article.id);
  const text = row?.status === "published" ? MAILING_MSG.sending : MAILING_MSG.scheduled;
  return redirect(`/dashboard/articles/${article.id}/mailing`, { headers: await flashHeaders({ tone: "success", text }) });
}

export default function ArticleMailing({ loaderData }: Route.ComponentProps) {
  const { article, progress, topics, confirmedByTopic } = loaderData;
  const locked = !!progress && progress.status !== "scheduled";
  return (
    <AdminPage title="Send to subscribers" back={{ to: `/dashboard/articles/${article.id}/edit`, label: "Edit article" }}>
      <p className="mb-6 text-lg">{article.title}</p>
      {progress ? (
        <p className="mb-6 rounded border border-line bg-white px-4 py-3">
          <MailingProgressText articleId={article.id} progress={progress} articlePublic={article.status === "published"} />
        </p>
      ) : null}
      {locked ? null : (
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
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="schedule" className={btnPrimary}>
              {article.status === "published" ? "Send to subscribers now" : "Send when published"}
            </button>
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

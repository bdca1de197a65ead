/** /dashboard/articles/:id/edit: the edit form; the article resolves from the URL. */
import { data, Link } from "react-router";
import type { Route } from "./+types/article-edit";
import { recentPageViews } from "~/.server/db/stats-report";
import { can } from "~/.server/auth/roles";
import { saveArticleAction, type ArticleActionData } from "~/.server/admin/articles.server";
import { keepFormOnSessionEnd, keptDraftFor } from "~/.server/admin/article-drafts.server";
import { parseId, isRefusal } from "~/.server/http/form-post";
import { getArticleById, type Article } from "~/.server/db/articles";
import { articleAuthorIds, listAuthorChoices } from "~/.server/db/article-authors";
import { previewAction, previewIntent, type PreviewActionData } from "~/.server/admin/preview.server";
import { listPreviewLinks } from "~/.server/db/previews";
import { isArticleRowPublic } from "~/.server/db/visibility";
import { log } from "~/.server/log";
import { mailingProgress } from "~/.server/db/mailings";
import { MailingProgressText } from "~/components/admin/mailing-progress";
import { PreviewTools } from "~/components/admin/preview-tools";
import { sanitizeArticleHtml } from "~/.server/content/sanitize";
import { AdminPage } from "~/components/admin/admin-page";
import { ViewsPanel } from "~/components/admin/views-panel";
import { ArticleForm } from "~/components/admin/article-form";
import { KeptDraft } from "~/components/admin/kept-draft";
import { useFormKey } from "~/components/admin/form-key";
import { articleValuesFromRow } from "~/lib/forms/article";
import { MSG } from "~/lib/forms/messages";
import { hasImage, imageUrl } from "~/lib/images";
import { firmDateTimeText } from "~/lib/firm-time";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

async function findArticle(id: string | undefined): Promise<Article | undefined | null> {
  const n = parseId(id);
  if (!n) return undefined;
  try {
    return await getArticleById(n);
  } catch (error) {
    log("error", "article not loaded", { id: n, error: (error as Error).message });
    return null;
  }
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  const article = await findArticle(params.id);
  if (!article)
    return data(
      {
        article: null,
        loadError: MSG.articleLoadError,
        links: [],
        isPublic: false,
        authorIds: [],
        authorChoices: [],
        views: null,
        mailing: null,
      },
      { status: article === null ? 500 : 404 },
    );
  const authorIds = await articleAuthorIds(article.id);
  // Sanitised again before it is shown (also in the editor).
  return {
    article: { ...article, copy: sanitizeArticleHtml(article.copy) },
    loadError: null,
    links: await listPreviewLinks("article", article.id),
    isPublic: isArticleRowPublic(article),
    // The person's autosaved working copy, if any (kept-draft.tsx).
    draft: await keptDraftFor(staff.userId, article.id),
    authorIds,
    authorChoices: await listAuthorChoices(authorIds),
    // Visit statistics: this article's page views in the last 30 days (roles that see the statistics).
    views: can(staff.role, "statistics") ? await recentPageViews("post", article.slug) : null,
    // "Send to subscribers": the mailing's progress, if any (issue 31).
    mailing: await mailingProgress(article.id),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  // A session that ended: 401 with the form kept as typed (kept-draft.tsx), not the error page.
  return keepFormOnSessionEnd(async () => {
    const actor = actorOf(context, MSG.updateError);
    if (isRefusal(actor)) return actor;
    const article = await findArticle(params.id);
    if (!article) return data({ status: { tone: "error" as const, text: MSG.articleLoadError } }, { status: article === null ? 500 : 404 });
    const preview = await previewIntent(request);
    if (preview) return previewAction(preview, { type: "article", id: article.id, label: article.title, kind: "post" }, actor);
    return saveArticleAction(request, actor, article);
  });
}

export default function ArticleEdit({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  const article = loaderData.article;
  if (!article) {
    return (
      <AdminPage title="Edit article" back={{ to: "/dashboard/articles", label: "Manage Articles" }}>
        <p role="alert" className="text-lg text-error">
          {loaderData.loadError}
        </p>
      </AdminPage>
    );
  }
  const failed = actionData && "values" in actionData ? (actionData as ArticleActionData) : undefined;
  return (
    <AdminPage title="Edit article" back={{ to: "/dashboard/articles", label: "Manage Articles" }}>
      <p className="-mt-4 mb-6 text-muted">
        {article.status === "published"
          ? article.date
          : article.status === "scheduled" && article.published_at
            ? `Scheduled for ${firmDateTimeText(article.published_at)}`
            : "Draft"}
      </p>
      {failed?.conflict ? (
        <p className="mb-6">
          <a href={`/dashboard/articles/${article.id}/edit`} className="font-semibold text-accent underline">
            Reload the saved version
          </a>
        </p>
      ) : null}
      <p className="mb-4">
        <Link to={`/dashboard/history/article/${article.id}`} className="font-semibold text-accent underline">
          History
        </Link>
      </p>
      <ViewsPanel views={loaderData.views} />
      <section aria-labelledby="mailing-title" className="mb-6 rounded border border-line bg-white px-4 py-3">
        <h2 id="mailing-title" className="font-semibold">
          Subscribers
        </h2>
        <p className="mt-1">
          {loaderData.mailing ? (
            <MailingProgressText articleId={article.id} progress={loaderData.mailing} articlePublic={article.status === "published"} />
          ) : (
            "Not sent to subscribers."
          )}{" "}
          <Link to={`/dashboard/articles/${article.id}/mailing`} className="font-semibold text-accent underline">
            {loaderData.mailing && loaderData.mailing.status !== "scheduled" ? "Details" : "Send to subscribers"}
          </Link>
        </p>
      </section>
      <PreviewTools
        previewHref={`/preview/post/${encodeURIComponent(article.slug)}`}
        publicHref={`/post/${encodeURIComponent(article.slug)}`}
        isPublic={loaderData.isPublic}
        shareUrl={(actionData as PreviewActionData | undefined)?.shareUrl}
        links={loaderData.links}
      />
      <KeptDraft
        key={`${key}-${article.id}`}
        articleId={article.id}
        draft={"draft" in loaderData ? loaderData.draft : { userId: "", autosave: null }}
        values={failed?.values ?? articleValuesFromRow(article, loaderData.authorIds)}
        version={article.version}
      >
        {(kept) => (
          <ArticleForm
            key={kept.key}
            mode="edit"
            version={kept.version}
            values={kept.values}
            errors={failed?.errors}
            currentImage={
              hasImage(article.img) ? { url: imageUrl("articles", article.img), alt: `Current picture of “${article.title}”` } : undefined
            }
            authorChoices={loaderData.authorChoices}
            currentSocialImage={
              hasImage(article.social_img)
                ? { url: imageUrl("articles", article.social_img), alt: `Current social picture of “${article.title}”` }
                : undefined
            }
          />
        )}
      </KeptDraft>
    </AdminPage>
  );
}

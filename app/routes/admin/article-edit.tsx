/** /dashboard/articles/:id/edit: the edit form; the article resolves from the URL. */
import { data } from "react-router";
import type { Route } from "./+types/article-edit";
import { requireStaff } from "~/.server/auth";
import { saveArticleAction, type ArticleActionData } from "~/.server/admin/articles.server";
import { parseId, refuseUnlessStaff } from "~/.server/admin/request.server";
import { getArticleById, type Article } from "~/.server/db/articles";
import { log } from "~/.server/log";
import { sanitizeArticleHtml } from "~/.server/sanitize";
import { AdminPage } from "~/components/admin/admin-page";
import { ArticleForm } from "~/components/admin/article-form";
import { useFormKey } from "~/components/admin/form-key";
import { articleValuesFromRow } from "~/lib/forms/article";
import { MSG } from "~/lib/forms/messages";
import { hasImage, imageUrl } from "~/lib/images";

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

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request);
  const article = await findArticle(params.id);
  if (!article) return data({ article: null, loadError: MSG.articleLoadError }, { status: article === null ? 500 : 404 });
  // Sanitised again before it is shown (also in the editor).
  return { article: { ...article, copy: sanitizeArticleHtml(article.copy) }, loadError: null };
}

export async function action({ request, params }: Route.ActionArgs) {
  const refused = await refuseUnlessStaff(request, MSG.updateError);
  if (refused) return refused;
  const article = await findArticle(params.id);
  if (!article) return data({ status: { tone: "error" as const, text: MSG.articleLoadError } }, { status: article === null ? 500 : 404 });
  return saveArticleAction(request, article);
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
        {article.date} ·{" "}
        <a href={`/post/${encodeURIComponent(article.slug)}`} className="font-semibold text-accent underline" target="_blank" rel="noreferrer">
          View the public page<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
      <ArticleForm
        key={`${key}-${article.id}`}
        mode="edit"
        values={failed?.values ?? articleValuesFromRow(article)}
        errors={failed?.errors}
        currentImage={hasImage(article.img) ? { url: imageUrl("articles", article.img), alt: `Current picture of “${article.title}”` } : undefined}
      />
    </AdminPage>
  );
}

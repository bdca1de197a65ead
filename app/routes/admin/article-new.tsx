/** /dashboard/articles/new: the create form (picture required). After a save: a fresh form and the spec's message. */
import type { Route } from "./+types/article-new";
import { requireStaff } from "~/.server/auth";
import { MSG } from "~/lib/forms/messages";
import { actingStaff, isRefusal } from "~/.server/admin/request.server";
import { saveArticleAction } from "~/.server/admin/articles.server";
import { listAuthorChoices } from "~/.server/db/article-authors";
import { AdminPage } from "~/components/admin/admin-page";
import { ArticleForm } from "~/components/admin/article-form";
import { useFormKey } from "~/components/admin/form-key";
import { EMPTY_ARTICLE_VALUES } from "~/lib/forms/article";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "content");
  return { authorChoices: await listAuthorChoices() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await actingStaff(request, context, MSG.articleAddError);
  if (isRefusal(actor)) return actor;
  return saveArticleAction(request, actor);
}

export default function ArticleNew({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  return (
    <AdminPage title="Add an article" back={{ to: "/dashboard/articles", label: "Manage Articles" }}>
      <ArticleForm key={key} mode="create" values={actionData?.values ?? EMPTY_ARTICLE_VALUES} errors={actionData?.errors} authorChoices={loaderData.authorChoices} />
    </AdminPage>
  );
}

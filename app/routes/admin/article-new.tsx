/** /dashboard/articles/new: the create form (picture required). After a save: a fresh form and the spec's message. */
import type { Route } from "./+types/article-new";
import { MSG } from "~/lib/forms/messages";
import { isRefusal } from "~/.server/http/form-post";
import { saveArticleAction } from "~/.server/admin/articles.server";
import { keepFormOnSessionEnd, keptDraftFor } from "~/.server/admin/article-drafts.server";
import { listAuthorChoices } from "~/.server/db/article-authors";
import { AdminPage } from "~/components/admin/admin-page";
import { ArticleForm } from "~/components/admin/article-form";
import { KeptDraft } from "~/components/admin/kept-draft";
import { useFormKey } from "~/components/admin/form-key";
import { EMPTY_ARTICLE_VALUES } from "~/lib/forms/article";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

export async function loader({ context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  // The person's autosaved working copy of a new article, if any (kept-draft.tsx).
  return { authorChoices: await listAuthorChoices(), draft: await keptDraftFor(staff.userId, null) };
}

export async function action({ request, context }: Route.ActionArgs) {
  // A session that ended: 401 with the form kept as typed (kept-draft.tsx), not the error page.
  return keepFormOnSessionEnd(async () => {
    const actor = actorOf(context, MSG.articleAddError);
    if (isRefusal(actor)) return actor;
    return saveArticleAction(request, actor);
  });
}

export default function ArticleNew({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  return (
    <AdminPage title="Add an article" back={{ to: "/dashboard/articles", label: "Manage Articles" }}>
      <KeptDraft key={key} articleId={null} draft={loaderData.draft} values={actionData?.values ?? EMPTY_ARTICLE_VALUES}>
        {(kept) => (
          <ArticleForm
            key={kept.key}
            mode="create"
            values={kept.values}
            errors={actionData?.errors}
            authorChoices={loaderData.authorChoices}
          />
        )}
      </KeptDraft>
    </AdminPage>
  );
}

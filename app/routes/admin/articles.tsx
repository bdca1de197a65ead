/** /dashboard/articles: newest first, 50 a page, search on title, delete with confirmation. */
import { Pin } from "lucide-react";
import type { Route } from "./+types/articles";
import { MSG } from "~/lib/forms/messages";
import { deleteArticleAction } from "~/.server/admin/articles.server";
import { isRefusal } from "~/.server/http/form-post";
import { manageListQuery } from "~/.server/admin/manage-list.server";
import { getArticleById, listArticlesForAdmin } from "~/.server/db/articles";
import { firmDateTimeText } from "~/lib/firm-time";
import { ManageList } from "~/components/admin/manage-list";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "content",
  nav: { label: "Articles", title: "Manage Articles", text: "Write, edit or remove news and insights.", order: 20, icon: "articles" },
} satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const { q, page: asked, confirmId } = manageListQuery(request);
  const { rows: items, page, pageCount, total } = await listArticlesForAdmin({ search: q, page: asked });
  const confirming = confirmId ? await getArticleById(confirmId) : undefined;
  return { q, items, paging: { page, pageCount, total }, confirming: confirming ? { id: confirming.id, name: confirming.title } : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.articleDeleteError);
  if (isRefusal(actor)) return actor;
  return deleteArticleAction(request, actor);
}

export default function Articles({ loaderData }: Route.ComponentProps) {
  const { q, items, paging, confirming } = loaderData;
  return (
    <ManageList
      title="Manage Articles"
      path="/dashboard/articles"
      add={{ to: "/dashboard/articles/new", label: "ADD NEW ARTICLE" }}
      searchLabel="Search by title"
      listLabel="Articles"
      empty={{ noMatch: `No articles match “${q}”.`, none: "No articles yet." }}
      q={q}
      confirming={confirming}
      paging={paging}
      rows={items.map((a) => ({
        id: a.id,
        name: a.title,
        editTo: `/dashboard/articles/${a.id}/edit`,
        details: (
          <>
            <span className="capitalize">{a.category}</span> ·{" "}
            {a.status === "published"
              ? a.date
              : a.status === "scheduled" && a.published_at
                ? `Scheduled for ${firmDateTimeText(a.published_at)}`
                : "Draft"}
            {a.news ? " · News" : ""}
            {a.news && a.priority ? (
              <span className="ml-1 inline-flex items-center gap-0.5">
                · <Pin aria-hidden="true" className="size-3" /> Pinned
              </span>
            ) : null}
          </>
        ),
      }))}
    />
  );
}

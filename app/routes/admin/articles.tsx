/** /dashboard/articles: newest first, search on title, delete with confirmation. */
import { Pencil, Pin, Plus, Search } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/articles";
import { requireStaff } from "~/.server/auth";
import { MSG } from "~/lib/forms/messages";
import { deleteArticleAction } from "~/.server/admin/articles.server";
import { parseId, refuseUnlessStaff } from "~/.server/admin/request.server";
import { listArticlesForAdmin } from "~/.server/db/articles";
import { AdminPage } from "~/components/admin/admin-page";
import { ConfirmDelete, ConfirmPanel } from "~/components/admin/confirm-delete";
import { btnPrimary, btnSecondary, inputClass, labelClass } from "~/components/admin/styles";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const items = await listArticlesForAdmin(q);
  const confirmId = parseId(url.searchParams.get("confirm"));
  const confirming = confirmId ? (items.find((a) => a.id === confirmId) ?? null) : null;
  return { q, items, confirming: confirming ? { id: confirming.id, name: confirming.title } : null };
}

export async function action({ request }: Route.ActionArgs) {
  const refused = await refuseUnlessStaff(request, MSG.articleDeleteError);
  if (refused) return refused;
  return deleteArticleAction(request);
}

export default function Articles({ loaderData }: Route.ComponentProps) {
  const { q, items, confirming } = loaderData;
  const here = `/dashboard/articles${q ? `?q=${encodeURIComponent(q)}` : ""}`;
  return (
    <AdminPage
      title="Manage Articles"
      back={{ to: "/dashboard", label: "Dashboard" }}
      actions={
        <Link to="/dashboard/articles/new" className={btnPrimary}>
          <Plus aria-hidden="true" className="size-4" /> ADD NEW ARTICLE
        </Link>
      }
    >
      <Form method="get" role="search" className="mb-6 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor="search" className={labelClass}>
            Search by title
          </label>
          <input id="search" type="search" name="q" defaultValue={q} maxLength={200} className={inputClass} />
        </div>
        <button type="submit" className={btnSecondary}>
          <Search aria-hidden="true" className="size-4" /> Search
        </button>
      </Form>
      {confirming ? <ConfirmPanel id={confirming.id} name={confirming.name} q={q} cancelTo={here} /> : null}
      {items.length === 0 ? (
        <p className="py-8 text-center text-muted">{q ? `No articles match “${q}”.` : "No articles yet."}</p>
      ) : (
        <ul className="divide-y divide-line rounded border border-line bg-white" aria-label="Articles">
          {items.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center gap-4 px-4 py-3">
              <div className="min-w-0 flex-1">
                <Link to={`/dashboard/articles/${a.id}/edit`} className="font-semibold text-ink hover:text-accent hover:underline">
                  {a.title}
                </Link>
                <p className="text-sm text-muted">
                  <span className="capitalize">{a.category}</span> · {a.date}
                  {a.news ? " · News" : ""}
                  {a.news && a.priority ? (
                    <span className="ml-1 inline-flex items-center gap-0.5">
                      · <Pin aria-hidden="true" className="size-3" /> Pinned
                    </span>
                  ) : null}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <Link to={`/dashboard/articles/${a.id}/edit`} className={btnSecondary} aria-label={`Edit ${a.title}`}>
                  <Pencil aria-hidden="true" className="size-4" /> Edit
                </Link>
                <ConfirmDelete id={a.id} name={a.title} q={q} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </AdminPage>
  );
}

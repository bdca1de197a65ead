/** /dashboard/lawyers: team members sorted by full name, search on name, delete with confirmation. */
import { Pencil, Plus, Search } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/lawyers";
import { requireStaff } from "~/.server/auth";
import { MSG } from "~/lib/forms/messages";
import { deleteTeamMemberAction } from "~/.server/admin/team.server";
import { parseId, refuseUnlessStaff } from "~/.server/admin/request.server";
import { listTeamForAdmin } from "~/.server/db/team";
import { AdminPage } from "~/components/admin/admin-page";
import { ConfirmDelete, ConfirmPanel } from "~/components/admin/confirm-delete";
import { btnPrimary, btnSecondary, inputClass, labelClass } from "~/components/admin/styles";
import { Picture } from "~/components/public/picture";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const items = await listTeamForAdmin(q);
  const confirmId = parseId(url.searchParams.get("confirm"));
  const confirming = confirmId ? (items.find((m) => m.id === confirmId) ?? null) : null;
  return { q, items, confirming: confirming ? { id: confirming.id, name: confirming.full_name } : null };
}

export async function action({ request }: Route.ActionArgs) {
  const refused = await refuseUnlessStaff(request, MSG.teamDeleteError);
  if (refused) return refused;
  return deleteTeamMemberAction(request);
}

function editPath(slug: string) {
  return `/dashboard/lawyer/${encodeURIComponent(slug)}`;
}

export default function Lawyers({ loaderData }: Route.ComponentProps) {
  const { q, items, confirming } = loaderData;
  const here = `/dashboard/lawyers${q ? `?q=${encodeURIComponent(q)}` : ""}`;
  return (
    <AdminPage
      title="Manage Team"
      back={{ to: "/dashboard", label: "Dashboard" }}
      actions={
        <Link to="/dashboard/lawyers/new" className={btnPrimary}>
          <Plus aria-hidden="true" className="size-4" /> ADD NEW TEAM MEMBER
        </Link>
      }
    >
      <Form method="get" role="search" className="mb-6 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor="search" className={labelClass}>
            Search by name
          </label>
          <input id="search" type="search" name="q" defaultValue={q} maxLength={200} className={inputClass} />
        </div>
        <button type="submit" className={btnSecondary}>
          <Search aria-hidden="true" className="size-4" /> Search
        </button>
      </Form>
      {confirming ? <ConfirmPanel id={confirming.id} name={confirming.name} q={q} cancelTo={here} /> : null}
      {items.length === 0 ? (
        <p className="py-8 text-center text-muted">{q ? `No team members match “${q}”.` : "no team members to display"}</p>
      ) : (
        <ul className="divide-y divide-line rounded border border-line bg-white" aria-label="Team members">
          {items.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-4 px-4 py-3">
              <Picture kind="team" img={m.img} sizes="48px" alt="" width={48} height={60} loading="lazy" className="h-15 w-12 rounded object-cover" />
              <div className="min-w-0 flex-1">
                <Link to={editPath(m.slug)} className="font-semibold text-ink hover:text-accent hover:underline">
                  {m.full_name}
                </Link>
                <p className="text-sm text-muted">{m.title}</p>
              </div>
              <div className="flex items-center gap-2">
                <Link to={editPath(m.slug)} className={btnSecondary} aria-label={`Edit ${m.full_name}`}>
                  <Pencil aria-hidden="true" className="size-4" /> Edit
                </Link>
                <ConfirmDelete id={m.id} name={m.full_name} q={q} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </AdminPage>
  );
}

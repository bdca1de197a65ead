/** /dashboard/lawyers: team members sorted by full name, search on name, delete with confirmation. */
import type { Route } from "./+types/lawyers";
import { MSG } from "~/lib/forms/messages";
import { deleteTeamMemberAction } from "~/.server/admin/team.server";
import { isRefusal } from "~/.server/http/form-post";
import { manageListQuery } from "~/.server/admin/manage-list.server";
import { listTeamForAdmin } from "~/.server/db/team";
import { firmDateTimeText } from "~/lib/firm-time";
import { ManageList } from "~/components/admin/manage-list";
import { Picture } from "~/components/public/picture";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "content",
  nav: { label: "Team", title: "Manage Team", text: "Add, edit or remove team members.", order: 10, icon: "team" },
} satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const { q, confirmId } = manageListQuery(request);
  const items = await listTeamForAdmin(q);
  const confirming = confirmId ? (items.find((m) => m.id === confirmId) ?? null) : null;
  return { q, items, confirming: confirming ? { id: confirming.id, name: confirming.full_name } : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.teamDeleteError);
  if (isRefusal(actor)) return actor;
  return deleteTeamMemberAction(request, actor);
}

function editPath(slug: string) {
  return `/dashboard/lawyer/${encodeURIComponent(slug)}`;
}

export default function Lawyers({ loaderData }: Route.ComponentProps) {
  const { q, items, confirming } = loaderData;
  return (
    <ManageList
      title="Manage Team"
      path="/dashboard/lawyers"
      add={{ to: "/dashboard/lawyers/new", label: "ADD NEW TEAM MEMBER" }}
      searchLabel="Search by name"
      listLabel="Team members"
      empty={{ noMatch: `No team members match “${q}”.`, none: "no team members to display" }}
      q={q}
      confirming={confirming}
      rows={items.map((m) => ({
        id: m.id,
        name: m.full_name,
        editTo: editPath(m.slug),
        details: (
          <>
            {m.title}
            {m.visible ? "" : " · Hidden"}
            {m.visible_from ? ` · Visible from ${firmDateTimeText(m.visible_from)}` : ""}
            {m.hidden_from ? ` · Hidden from ${firmDateTimeText(m.hidden_from)}` : ""}
          </>
        ),
        picture: <Picture place="teamThumbnail" img={m.img} alt="" loading="lazy" className="h-15 w-12 rounded object-cover" />,
      }))}
    />
  );
}

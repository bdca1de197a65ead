/** /dashboard/lawyers/new: the create form. After a save: a fresh form and "{name} has been added successfully". */
import type { Route } from "./+types/lawyer-new";
import { MSG } from "~/lib/forms/messages";
import { isRefusal } from "~/.server/http/form-post";
import { saveTeamMemberAction, type TeamActionData } from "~/.server/admin/team.server";
import { AdminPage } from "~/components/admin/admin-page";
import { useFormKey } from "~/components/admin/form-key";
import { TeamForm } from "~/components/admin/team-form";
import { EMPTY_TEAM_VALUES } from "~/lib/forms/team";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

export function loader() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.teamAddError);
  if (isRefusal(actor)) return actor;
  return saveTeamMemberAction(request, actor);
}

export default function LawyerNew(props: Route.ComponentProps) {
  const actionData = props.actionData as TeamActionData | undefined;
  const key = useFormKey(actionData);
  // A refused save: what was typed, with its messages (and the staff editor's).
  const { values = EMPTY_TEAM_VALUES, errors, staffMessage, staffOpen } = actionData ?? {};
  return (
    <AdminPage title="Add a team member" back={{ to: "/dashboard/lawyers", label: "Manage Team" }}>
      <TeamForm key={key} mode="create" values={values} errors={errors} staffMessage={staffMessage} staffOpen={staffOpen} />
    </AdminPage>
  );
}

/** /dashboard/lawyer/:slug: the edit form; the member resolves from the URL, so a reload keeps the form. */
import { data } from "react-router";
import type { Route } from "./+types/lawyer-edit";
import { requireStaff } from "~/.server/auth";
import { refuseUnlessStaff } from "~/.server/admin/request.server";
import { saveTeamMemberAction, type TeamActionData } from "~/.server/admin/team.server";
import { getTeamMemberBySlug, type TeamMember } from "~/.server/db/team";
import { log } from "~/.server/log";
import { AdminPage } from "~/components/admin/admin-page";
import { useFormKey } from "~/components/admin/form-key";
import { TeamForm } from "~/components/admin/team-form";
import { MSG } from "~/lib/forms/messages";
import { teamValuesFromMember } from "~/lib/forms/team";
import { hasImage, imageUrl } from "~/lib/images";

async function findMember(slug: string | undefined): Promise<TeamMember | undefined | null> {
  if (!slug || slug.length > 300) return undefined;
  try {
    return await getTeamMemberBySlug(slug);
  } catch (error) {
    log("error", "team member not loaded", { slug, error: (error as Error).message });
    return null;
  }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request);
  const member = await findMember(params.slug);
  if (!member) return data({ member: null, loadError: MSG.teamLoadError }, { status: member === null ? 500 : 404 });
  return { member, loadError: null };
}

export async function action({ request, params }: Route.ActionArgs) {
  const refused = await refuseUnlessStaff(request, MSG.updateError);
  if (refused) return refused;
  const member = await findMember(params.slug);
  if (!member) return data({ status: { tone: "error" as const, text: MSG.teamLoadError } }, { status: member === null ? 500 : 404 });
  return saveTeamMemberAction(request, member);
}

export default function LawyerEdit({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  const member = loaderData.member;
  if (!member) {
    return (
      <AdminPage title="Edit team member" back={{ to: "/dashboard/lawyers", label: "Manage Team" }}>
        <p role="alert" className="text-lg text-error">
          {loaderData.loadError}
        </p>
      </AdminPage>
    );
  }
  const failed = actionData && "values" in actionData ? (actionData as TeamActionData) : undefined;
  return (
    <AdminPage title={`Edit ${member.full_name}`} back={{ to: "/dashboard/lawyers", label: "Manage Team" }}>
      <p className="-mt-4 mb-6">
        <a href={`/lawyer/${encodeURIComponent(member.slug)}`} className="font-semibold text-accent underline" target="_blank" rel="noreferrer">
          View the public page<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
      <TeamForm
        key={`${key}-${member.id}`}
        mode="edit"
        values={failed?.values ?? teamValuesFromMember(member)}
        errors={failed?.errors}
        staffMessage={failed?.staffMessage}
        staffOpen={failed?.staffOpen}
        currentImage={hasImage(member.img) ? { url: imageUrl("team", member.img), alt: `Current photo of ${member.full_name}` } : undefined}
      />
    </AdminPage>
  );
}

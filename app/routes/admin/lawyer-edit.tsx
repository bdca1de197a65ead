/** /dashboard/lawyer/:slug: the edit form; the member resolves from the URL, so a reload keeps the form. */
import { data, Link } from "react-router";
import type { Route } from "./+types/lawyer-edit";
import { isRefusal } from "~/.server/http/form-post";
import { recentPageViews } from "~/.server/db/stats-report";
import { can } from "~/.server/auth/roles";
import { saveTeamMemberAction, type TeamActionData } from "~/.server/admin/team.server";
import { getTeamMemberBySlugForStaff, type TeamMember } from "~/.server/db/team";
import { previewAction, previewIntent, type PreviewActionData } from "~/.server/admin/preview.server";
import { listPreviewLinks } from "~/.server/db/previews";
import { isTeamRowPublic } from "~/.server/db/visibility";
import { log } from "~/.server/log";
import { PreviewTools } from "~/components/admin/preview-tools";
import { AdminPage } from "~/components/admin/admin-page";
import { ViewsPanel } from "~/components/admin/views-panel";
import { useFormKey } from "~/components/admin/form-key";
import { TeamForm } from "~/components/admin/team-form";
import { MSG } from "~/lib/forms/messages";
import { teamValuesFromMember } from "~/lib/forms/team";
import { hasImage, imageUrl } from "~/lib/images";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "content" } satisfies RouteHandle;

async function findMember(slug: string | undefined): Promise<TeamMember | undefined | null> {
  if (!slug || slug.length > 300) return undefined;
  try {
    return await getTeamMemberBySlugForStaff(slug);
  } catch (error) {
    log("error", "team member not loaded", { slug, error: (error as Error).message });
    return null;
  }
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  const member = await findMember(params.slug);
  if (!member)
    return data(
      { member: null, loadError: MSG.teamLoadError, links: [], isPublic: false, views: null },
      { status: member === null ? 500 : 404 },
    );
  return {
    member,
    loadError: null,
    links: await listPreviewLinks("team", member.id),
    isPublic: isTeamRowPublic(member),
    // Visit statistics: this lawyer's profile views in the last 30 days (roles that see the statistics).
    views: can(staff.role, "statistics") ? await recentPageViews("lawyer", member.slug) : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.updateError);
  if (isRefusal(actor)) return actor;
  const member = await findMember(params.slug);
  if (!member) return data({ status: { tone: "error" as const, text: MSG.teamLoadError } }, { status: member === null ? 500 : 404 });
  const preview = await previewIntent(request);
  if (preview) return previewAction(preview, { type: "team", id: member.id, label: member.full_name, kind: "lawyer" }, actor);
  return saveTeamMemberAction(request, actor, member);
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
      {failed?.conflict ? (
        <p className="mb-6">
          <a href={`/dashboard/lawyer/${encodeURIComponent(member.slug)}`} className="font-semibold text-accent underline">
            Reload the saved version
          </a>
        </p>
      ) : null}
      <p className="mb-4">
        <Link to={`/dashboard/history/team/${member.id}`} className="font-semibold text-accent underline">
          History
        </Link>
      </p>
      <ViewsPanel views={loaderData.views} />
      <PreviewTools
        previewHref={`/preview/lawyer/${encodeURIComponent(member.slug)}`}
        publicHref={`/lawyer/${encodeURIComponent(member.slug)}`}
        isPublic={loaderData.isPublic}
        shareUrl={(actionData as PreviewActionData | undefined)?.shareUrl}
        links={loaderData.links}
      />
      <TeamForm
        key={`${key}-${member.id}`}
        mode="edit"
        version={member.version}
        values={failed?.values ?? teamValuesFromMember(member)}
        errors={failed?.errors}
        staffMessage={failed?.staffMessage}
        staffOpen={failed?.staffOpen}
        currentImage={hasImage(member.img) ? { url: imageUrl("team", member.img), alt: `Current photo of ${member.full_name}` } : undefined}
      />
    </AdminPage>
  );
}

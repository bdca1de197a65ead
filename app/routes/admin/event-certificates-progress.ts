/**
 * GET /dashboard/events/:id/registrations/certificates (issue 45; permission
 * "event-registrations"): the sending of the event's certificates alone
 * (sent of all, the state, a failure in words), read every second or two by
 * the registrations screen while the job runs.
 */
import type { Route } from "./+types/event-certificates-progress";
import { parseId } from "~/.server/http/form-post";
import { getEventById } from "~/.server/db/event-editing";
import { certificateProgress } from "~/.server/events/certificate-job";
import { servicesContext } from "~/.server/http/request-context";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "event-registrations" } satisfies RouteHandle;

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const event = id ? await getEventById(id, { withTrashed: true }) : undefined;
  if (!event) throw new Response("Not found", { status: 404 });
  return { progress: await certificateProgress(context.get(servicesContext).jobQueue, event.id) };
}

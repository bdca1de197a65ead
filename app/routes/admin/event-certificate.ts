/**
 * GET /dashboard/events/:id/registrations/:registrationId/certificate.pdf
 * (issue 45; permission "event-registrations"): an attendee's certificate of
 * attendance, made now (events/certificate.ts), the same as the one
 * e-mailed. Only for someone marked as attended; never cached.
 */
import type { Route } from "./+types/event-certificate";
import { parseId } from "~/.server/http/form-post";
import { getEventById } from "~/.server/db/event-editing";
import { getEventRegistration } from "~/.server/db/event-registrations";
import { certificateFilename, renderCertificatePdf } from "~/.server/events/certificate";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "event-registrations" } satisfies RouteHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const registrationId = parseId(params.registrationId);
  const event = id ? await getEventById(id, { withTrashed: true }) : undefined;
  const registration = event && registrationId ? await getEventRegistration(event.id, registrationId) : undefined;
  if (!event || registration?.status !== "attended") throw new Response("Not found", { status: 404 });
  const pdf = await renderCertificatePdf(event, registration);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${certificateFilename(event, registration.name)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

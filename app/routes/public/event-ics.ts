/**
 * /event/:slug.ics: a public event's calendar file (RFC 5545; issue 45),
 * without the webinar's joining link (app/.server/events/calendar.ts).
 */
import type { Route } from "./+types/event-ics";
import { getEventBySlug } from "~/.server/db/events";
import { eventCalendar } from "~/.server/events/calendar";
import { getEnv } from "~/.server/env";
import type { RouteHandle } from "~/lib/route-handle";

/** The page cache keeps it (lib/route-handle.ts); it reads no query parameter. */
export const handle = { pageCache: { params: [] } } satisfies RouteHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const event = await getEventBySlug(params.slug);
  if (!event) return new Response("No Event Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(eventCalendar(event, getEnv().publicUrl), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${event.slug.replace(/[^A-Za-z0-9-]/g, "")}.ics"`,
    },
  });
}

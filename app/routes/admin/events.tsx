/** /dashboard/events: upcoming events first (soonest first), then past ones; search on title; delete (to the Trash) with confirmation. */
import type { Route } from "./+types/events";
import { deleteEventAction } from "~/.server/admin/events.server";
import { isRefusal } from "~/.server/http/form-post";
import { manageListQuery } from "~/.server/admin/manage-list.server";
import { getEventById, listEventsForAdmin } from "~/.server/db/event-editing";
import { eventDateText, eventTimeText, FORMAT_LABELS, type EventFormat } from "~/lib/events";
import { firmDateTimeText } from "~/lib/firm-time";
import { ManageList } from "~/components/admin/manage-list";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "events",
  nav: {
    label: "Events",
    title: "Manage Events",
    text: "Seminars and webinars: details, speakers, CPD hours, registrations.",
    order: 25,
    icon: "events",
  },
} satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const { q, page: asked, confirmId } = manageListQuery(request);
  const { rows, page, pageCount, total } = await listEventsForAdmin({ search: q, page: asked });
  const confirming = confirmId ? await getEventById(confirmId) : undefined;
  return {
    q,
    items: rows.map((e) => ({
      id: e.id,
      title: e.title,
      when: `${eventDateText(e.starts_at)}, ${eventTimeText(e.starts_at)}`,
      format: FORMAT_LABELS[e.format as EventFormat] ?? e.format,
      state:
        e.status === "published"
          ? "Published"
          : e.status === "scheduled" && e.published_at
            ? `Scheduled for ${firmDateTimeText(e.published_at)}`
            : "Draft",
      eventStatus: e.event_status === "cancelled" ? "Cancelled" : e.event_status === "rescheduled" ? "Moved" : "",
      past: e.past,
      places: e.capacity === null ? `${e.taken} registered` : `${e.taken} of ${e.capacity} places taken`,
      waiting: e.waiting,
    })),
    paging: { page, pageCount, total },
    confirming: confirming ? { id: confirming.id, name: confirming.title } : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, "An error occurred while deleting the event. Please try again.");
  if (isRefusal(actor)) return actor;
  return deleteEventAction(request, actor, (id) => getEventById(id));
}

export default function Events({ loaderData }: Route.ComponentProps) {
  const { q, items, paging, confirming } = loaderData;
  return (
    <ManageList
      title="Manage Events"
      path="/dashboard/events"
      add={{ to: "/dashboard/events/new", label: "ADD NEW EVENT" }}
      searchLabel="Search by title"
      listLabel="Events"
      empty={{ noMatch: `No events match “${q}”.`, none: "No events yet." }}
      q={q}
      confirming={confirming}
      paging={paging}
      rows={items.map((e) => ({
        id: e.id,
        name: e.title,
        editTo: `/dashboard/events/${e.id}/edit`,
        details: (
          <>
            {e.when} · {e.format} · {e.state}
            {e.eventStatus ? ` · ${e.eventStatus}` : ""}
            {e.past ? " · Over" : ""}
            <br />
            {e.places}
            {e.waiting ? ` · ${e.waiting} waiting` : ""}
          </>
        ),
      }))}
    />
  );
}

/**
 * /dashboard/events/:id/edit: the event's form, its state and places, a
 * preview, its history, and "Cancel the event" (asked once more, with or
 * without JavaScript: `?cancel=ask` shows the confirmation).
 */
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/event-edit";
import { can } from "~/.server/auth/roles";
import { cancelEventAction, readEventForm, saveEventAction, type EventActionData } from "~/.server/admin/events.server";
import { parseId, isRefusal } from "~/.server/http/form-post";
import { eventSpeakerInputs, getEventById, registrantsToTell } from "~/.server/db/event-editing";
import { countTaken, type Event } from "~/.server/db/events";
import { listAuthorChoices } from "~/.server/db/article-authors";
import { getEnv } from "~/.server/env";
import { log } from "~/.server/log";
import { AdminPage } from "~/components/admin/admin-page";
import { EventForm } from "~/components/admin/event-form";
import { useFormKey } from "~/components/admin/form-key";
import { btnDanger, btnSecondary, linkClass } from "~/components/admin/styles";
import { EVENT_MSG, eventValuesFromRow } from "~/lib/forms/event";
import { eventDateText, eventPath, eventTimeText } from "~/lib/events";
import { firmDateTimeText } from "~/lib/firm-time";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "events" } satisfies RouteHandle;

async function findEvent(id: string | undefined): Promise<Event | undefined | null> {
  const n = parseId(id);
  if (!n) return undefined;
  try {
    return await getEventById(n);
  } catch (error) {
    log("error", "event not loaded", { id: n, error: (error as Error).message });
    return null;
  }
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  const event = await findEvent(params.id);
  if (!event)
    return data(
      { event: null, loadError: event === null ? EVENT_MSG.loadError : EVENT_MSG.notFound },
      { status: event === null ? 500 : 404 },
    );
  const speakers = await eventSpeakerInputs(event.id);
  const memberIds = speakers.flatMap((s) => ("memberId" in s ? [s.memberId] : []));
  const [taken, toTell, speakerChoices] = await Promise.all([countTaken(event.id), registrantsToTell(event), listAuthorChoices(memberIds)]);
  const cancelling = new URL(request.url).searchParams.get("cancel") === "ask" && event.event_status !== "cancelled";
  return {
    loadError: null,
    event: {
      id: event.id,
      slug: event.slug,
      title: event.title,
      version: event.version,
      state:
        event.status === "published"
          ? "Published"
          : event.status === "scheduled" && event.published_at
            ? `Scheduled for ${firmDateTimeText(event.published_at)}`
            : "Draft",
      isPublic: event.status === "published",
      cancelled: event.event_status === "cancelled",
      moved:
        event.event_status === "rescheduled" && event.previous_starts_at
          ? `${eventDateText(event.previous_starts_at)}, ${eventTimeText(event.previous_starts_at)}`
          : null,
      places: event.capacity === null ? `${taken} registered (no limit)` : `${taken} of ${event.capacity} places taken`,
    },
    toTell,
    cancelling,
    values: eventValuesFromRow(event, speakers),
    speakerChoices,
    // Registrants' personal data: owners, admins and events coordinators (roles.ts).
    registrants: can(staff.role, "event-registrations"),
    // History (and the Trash) are content screens: an events coordinator is not offered a link that answers 403.
    history: can(staff.role, "content"),
    recordingMaxBytes: getEnv().RECORDING_MAX_BYTES,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = actorOf(context, EVENT_MSG.saveError);
  if (isRefusal(actor)) return actor;
  const event = await findEvent(params.id);
  if (!event) return data<EventActionData>({ status: { tone: "error", text: EVENT_MSG.notFound } }, { status: event === null ? 500 : 404 });
  // "Cancel the event" posts a small form of its own (intent=cancel-event); the edit form posts intent=save with everything else.
  const form = await readEventForm(request);
  if (isRefusal(form)) return form;
  if (form.get("intent") === "cancel-event") return cancelEventAction(event, actor);
  return saveEventAction(form, actor, event);
}

export default function EventEdit({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  if (!loaderData.event) {
    return (
      <AdminPage title="Edit event" back={{ to: "/dashboard/events", label: "Manage Events" }}>
        <p role="alert" className="text-lg text-error">
          {loaderData.loadError}
        </p>
      </AdminPage>
    );
  }
  const { event, toTell } = loaderData;
  const failed = actionData && "values" in actionData ? (actionData as EventActionData) : undefined;
  const people = toTell === 1 ? "1 person" : `${toTell} people`;
  return (
    <AdminPage title="Edit event" back={{ to: "/dashboard/events", label: "Manage Events" }}>
      <p className="-mt-4 mb-2 text-muted">
        {event.state}
        {event.cancelled ? " · Cancelled" : event.moved ? ` · Moved (first planned for ${event.moved})` : ""} · {event.places}
      </p>
      {failed?.conflict ? (
        <p className="mb-6">
          <a href={`/dashboard/events/${event.id}/edit`} className={linkClass}>
            Reload the saved version
          </a>
        </p>
      ) : null}
      <ul className="mb-6 flex flex-wrap gap-x-6 gap-y-2">
        <li>
          <a href={`/preview/event/${encodeURIComponent(event.slug)}`} className={linkClass} target="_blank" rel="noreferrer">
            Preview
          </a>
        </li>
        {event.isPublic ? (
          <li>
            <a href={eventPath(event.slug)} className={linkClass} target="_blank" rel="noreferrer">
              View on the site
            </a>
          </li>
        ) : null}
        {loaderData.history ? (
          <li>
            <Link to={`/dashboard/history/event/${event.id}`} className={linkClass}>
              History
            </Link>
          </li>
        ) : null}
        {loaderData.registrants ? (
          <li>
            <Link to={`/dashboard/events/${event.id}/registrations`} className={linkClass}>
              Registrations
            </Link>
          </li>
        ) : null}
      </ul>
      <EventForm
        key={key}
        mode="edit"
        version={event.version}
        values={failed?.values ?? loaderData.values}
        errors={failed?.errors}
        speakerChoices={loaderData.speakerChoices}
        eventId={event.id}
        recordingMaxBytes={loaderData.recordingMaxBytes}
      />
      {event.cancelled ? null : (
        <section aria-labelledby="cancel-title" className="mt-10 rounded border border-line bg-white px-4 py-4">
          <h2 id="cancel-title" className="text-lg font-semibold">
            Cancel the event
          </h2>
          <p className="mt-1 text-muted">
            The event's page says it is cancelled and registration closes.{" "}
            {toTell
              ? `${people} registered or waiting will be told by e-mail, with a calendar cancellation.`
              : "Nobody is registered or waiting."}
          </p>
          {loaderData.cancelling ? (
            <div role="alertdialog" aria-labelledby="cancel-confirm" className="mt-3 rounded border border-error p-3">
              <p id="cancel-confirm" className="font-semibold">
                Cancel “{event.title}”{toTell ? ` and tell ${people}` : ""}? This cannot be undone.
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Form method="post">
                  <input type="hidden" name="intent" value="cancel-event" />
                  {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the confirmation replaces the button the person pressed: its button takes the focus, as a dialog's would. */}
                  <button type="submit" className={btnDanger} autoFocus>
                    Yes, cancel the event
                  </button>
                </Form>
                <Link to={`/dashboard/events/${event.id}/edit`} className={btnSecondary}>
                  Keep the event
                </Link>
              </div>
            </div>
          ) : (
            <Form method="get" className="mt-3">
              <input type="hidden" name="cancel" value="ask" />
              <button type="submit" className={btnDanger}>
                Cancel the event…
              </button>
            </Form>
          )}
        </section>
      )}
    </AdminPage>
  );
}

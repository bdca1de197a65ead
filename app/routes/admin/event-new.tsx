/** /dashboard/events/new: the create form. After a save: the new event's edit screen with the message. */
import type { Route } from "./+types/event-new";
import { isRefusal } from "~/.server/http/form-post";
import { readEventForm, saveEventAction } from "~/.server/admin/events.server";
import { listAuthorChoices } from "~/.server/db/article-authors";
import { AdminPage } from "~/components/admin/admin-page";
import { EventForm } from "~/components/admin/event-form";
import { useFormKey } from "~/components/admin/form-key";
import { EMPTY_EVENT_VALUES, EVENT_MSG } from "~/lib/forms/event";
import { actorOf } from "~/.server/admin/guard.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "events" } satisfies RouteHandle;

export async function loader() {
  return { speakerChoices: await listAuthorChoices() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, EVENT_MSG.saveError);
  if (isRefusal(actor)) return actor;
  const form = await readEventForm(request);
  if (isRefusal(form)) return form;
  return saveEventAction(form, actor);
}

export default function EventNew({ loaderData, actionData }: Route.ComponentProps) {
  const key = useFormKey(actionData);
  // A refused save: what was typed, with its messages.
  const { values = EMPTY_EVENT_VALUES, errors } = actionData && "values" in actionData ? actionData : {};
  return (
    <AdminPage title="Add an event" back={{ to: "/dashboard/events", label: "Manage Events" }}>
      <EventForm key={key} mode="create" values={values} errors={errors} speakerChoices={loaderData.speakerChoices} />
    </AdminPage>
  );
}

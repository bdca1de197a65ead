/**
 * POST /dashboard/events/:id/recording (the "events" permission): the event
 * form's script sends a chosen recording file here as the request's body (the
 * file's own Content-Type, its name in X-File-Name), streamed to storage as it
 * arrives, never whole in memory (as the WordPress export: wordpress-upload.ts).
 * The answer is JSON: the stored file's key, which the form then saves with the
 * event (Save), or a message in words. A file no event names is removed by the
 * picture sweep (picture-sweep.ts).
 */
import { redirect } from "react-router";
import type { Route } from "./+types/event-recording-upload";
import { actorOf } from "~/.server/admin/guard.server";
import { getEventById } from "~/.server/db/event-editing";
import { getEnv } from "~/.server/env";
import { RecordingRefused, storeRecording } from "~/.server/events/recordings";
import { isRefusal, parseId } from "~/.server/http/form-post";
import { EVENT_MSG } from "~/lib/forms/event";
import { RECORDING_MSG } from "~/lib/recordings";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "events" } satisfies RouteHandle;

/** Nothing to show here: the upload is sent by the event's edit screen. */
export function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  return redirect(id ? `/dashboard/events/${id}/edit` : "/dashboard/events");
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(context, EVENT_MSG.saveError);
  if (isRefusal(actor)) return actor;
  const fail = (text: string, status = 400) => Response.json({ status: { tone: "error", text } }, { status });
  const id = parseId(params.id);
  if (!id || !(await getEventById(id))) return fail(EVENT_MSG.notFound, 404);
  const max = getEnv().RECORDING_MAX_BYTES;
  let name = "";
  try {
    name = decodeURIComponent(request.headers.get("x-file-name") ?? "").slice(0, 200);
  } catch {
    /* a malformed name: the message names no file */
  }
  if (Number(request.headers.get("content-length") ?? 0) > max) return fail(RECORDING_MSG.tooLarge(max), 413);
  if (!request.body) return fail(RECORDING_MSG.empty);
  try {
    return Response.json({ recording: await storeRecording(request.body, name, max) });
  } catch (error) {
    if (error instanceof RecordingRefused) return fail(error.message, error.status);
    throw error;
  }
}

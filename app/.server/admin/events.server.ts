/**
 * The event screens' actions (issue 45): save (new and edit), cancel, and
 * delete (to the Trash). The caller has checked the session and the
 * "events" permission (the route's handle) and passes the Actor the audit
 * trail records. A move or a cancellation tells the registrants: their
 * e-mails are kept in the outbox in the change's own transaction, then sent
 * after the answer (a crash in between leaves them to the Outbox job).
 */
import { data, redirect } from "react-router";
import { listSearch } from "~/lib/list-search";
import { EVENT_LISTS, EVENT_MSG, eventSchema, eventValuesFromForm, type EventFormValues } from "~/lib/forms/event";
import { fieldErrors, formText, formValues, hasMissing } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";
import { listHref, parsePage } from "~/lib/pagination";
import type { Actor } from "../db/audit";
import type { Db } from "../db/client";
import { addEvent, cancelEvent, eventSpeakerInputs, registrantsToTell, saveEvent, trashEvent, type Notify } from "../db/event-editing";
import type { Event, SpeakerInput } from "../db/events";
import { listAuthorChoices } from "../db/article-authors";
import { EditConflict } from "../db/revisions";
import type { EventRegistrationRow } from "../db/schema";
import { sanitizeArticleHtml } from "../content/sanitize";
import { eventMail } from "../events/messages";
import { keepMail } from "../mail/mail";
import { conflictText } from "~/lib/forms/conflict";
import { log } from "../log";
import { flashHeaders } from "./flash.server";
import { formVersion, bodyHtml } from "./articles.server";
import { deleteRecording, readCaptions, recordingStored, storeCaptions } from "../events/recordings";
import { CAPTIONS_MAX_BYTES, CAPTIONS_MSG, isRecordingKey, RECORDING_MSG } from "~/lib/recordings";
import { isRefusal, MAX_TEXT_FORM_BYTES, parseId, readForm, type FailureData } from "../http/form-post";

export type EventActionData = FailureData & { values?: EventFormValues; conflict?: boolean };

/** Reads the event form's body: its text and, at most, a recording's captions file (CAPTIONS_MAX_BYTES; the recording itself is uploaded apart). */
export function readEventForm(request: Request) {
  return readForm(request, MAX_TEXT_FORM_BYTES + CAPTIONS_MAX_BYTES + 64 * 1024, CAPTIONS_MSG.tooLarge);
}

/** The captions file chosen on the form (`captions_file`), if any: an empty file input sends a nameless, empty file. */
function chosenCaptions(form: FormData): File | undefined {
  const file = form.get("captions_file");
  return file instanceof File && (file.size > 0 || file.name !== "") ? file : undefined;
}

function fail(status: number, body: EventActionData) {
  return data<EventActionData>(body, { status });
}

/** Keeps one e-mail per registrant, with the job that sends it, in the change's transaction; `send` says how many. */
function registrantMail(kind: "moved" | "cancelled" | "promoted") {
  const kept: number[] = [];
  const notify: Notify = async (tx: Db, event: Event, registrations: EventRegistrationRow[]) => {
    for (const r of registrations) {
      // A registrant told of a new time, or given a place, may not make it: the e-mail carries the cancel link
      // (the same as in their earlier e-mails, which keep working). A cancellation needs none.
      kept.push(await keepMail(tx, eventMail(kind, event, r)));
    }
  };
  // Sent by their jobs (mail-send): a big list does not hold the person's request.
  const send = () => kept.length;
  return { notify, send };
}

/** The event form's POST, read once (`readEventForm`), saved as a new event or over `existing`. */
export async function saveEventAction(form: FormData, actor: Actor, existing?: Event) {
  const raw = formValues(form, EVENT_LISTS);
  const values = eventValuesFromForm(raw);
  const parsed = eventSchema.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
  let copy = "";
  // The captions file: read and checked here, stored only once everything else is right.
  const captionsFile = chosenCaptions(form);
  let captionsText: string | undefined;
  if (captionsFile) {
    const read = await readCaptions(captionsFile);
    if ("refused" in read) errors.captions_file = read.refused;
    else captionsText = read.text;
  }
  if (parsed.success) {
    copy = sanitizeArticleHtml(bodyHtml(parsed.data.copy));
    if (!/[^\s]/.test(copy.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " "))) errors.copy = "Description is required.";
    // Only team members the form offers (not in the Trash).
    if (parsed.data.speakerIds.length) {
      const current = existing ? (await eventSpeakerInputs(existing.id)).flatMap((s) => ("memberId" in s ? [s.memberId] : [])) : [];
      const offered = new Set((await listAuthorChoices(current)).map((m) => m.id));
      if (parsed.data.speakerIds.some((id) => !offered.has(id))) errors.speakers = EVENT_MSG.speakersUnknown;
    }
    // A newly uploaded recording is saved only while its file is stored (the sweep removes one no event names).
    const recording = parsed.data.recording_url;
    if (isRecordingKey(recording) && recording !== existing?.recording_url && !(await recordingStored(recording).catch(() => false)))
      errors.recording_file = RECORDING_MSG.gone;
    if (captionsText !== undefined && !isRecordingKey(recording)) errors.captions_file = CAPTIONS_MSG.noRecording;
  }
  if (Object.keys(errors).length || !parsed.success)
    return fail(400, { status: { tone: "error", text: hasMissing(errors) ? MSG.missingFields : MSG.checkFields }, errors, values });

  const { speakerIds, guests, status, publishAt, captions_remove, ...fields } = parsed.data;
  const speakers: SpeakerInput[] = [...speakerIds.map((memberId) => ({ memberId })), ...guests];
  // The captions go with the uploaded recording: new ones chosen; the saved ones kept unless removed, or the recording replaced or removed.
  let newCaptions = "";
  if (captionsText !== undefined) {
    try {
      newCaptions = await storeCaptions(captionsText);
    } catch (error) {
      log("error", "captions not stored", { error: (error as Error).message });
      return fail(503, {
        status: { tone: "error", text: CAPTIONS_MSG.unavailable },
        errors: { captions_file: CAPTIONS_MSG.unavailable },
        values,
      });
    }
  }
  const keptCaptions =
    existing && !captions_remove && existing.recording_url === fields.recording_url && isRecordingKey(fields.recording_url)
      ? existing.recording_captions
      : "";
  const recording_captions = newCaptions || keptCaptions;
  const input = { ...fields, recording_captions, copy, speakers, state: { status, publishAt } };

  if (!existing) {
    let created: Event;
    try {
      created = await addEvent(input, actor);
    } catch (error) {
      log("error", "event not added", { error: (error as Error).message });
      await deleteRecording(newCaptions);
      return fail(500, { status: { tone: "error", text: EVENT_MSG.saveError }, values });
    }
    return redirect(`/dashboard/events/${created.id}/edit`, { headers: await flashHeaders({ tone: "success", text: EVENT_MSG.added }) });
  }

  const mail = registrantMail("moved");
  const promotedMail = registrantMail("promoted");
  let saved: Awaited<ReturnType<typeof saveEvent>>;
  try {
    saved = await saveEvent(existing.id, { ...input, expectedVersion: formVersion(raw.version) }, actor, {
      moved: mail.notify,
      promoted: promotedMail.notify,
    });
  } catch (error) {
    await deleteRecording(newCaptions);
    if (error instanceof EditConflict)
      return fail(409, { status: { tone: "error", text: conflictText(error.savedBy, error.savedAt) }, values, conflict: true });
    log("error", "event not saved", { id: existing.id, error: (error as Error).message });
    return fail(500, { status: { tone: "error", text: EVENT_MSG.saveError }, values });
  }
  if (!saved) {
    await deleteRecording(newCaptions);
    return fail(404, { status: { tone: "error", text: EVENT_MSG.notFound }, values });
  }
  // An uploaded recording replaced or removed: its file goes (a link is left alone); its captions too when replaced or removed.
  if (existing.recording_url !== input.recording_url) await deleteRecording(existing.recording_url);
  if (existing.recording_captions !== input.recording_captions) await deleteRecording(existing.recording_captions);
  const told = saved.moved ? mail.send() : 0;
  const promoted = saved.promoted ? promotedMail.send() : 0;
  const text = [
    EVENT_MSG.updated,
    told ? EVENT_MSG.moved : "",
    promoted
      ? `${promoted === 1 ? "1 person" : `${promoted} people`} waiting now ${promoted === 1 ? "has a place and is" : "have places and are"} being told by e-mail.`
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  return redirect(`/dashboard/events/${existing.id}/edit`, { headers: await flashHeaders({ tone: "success", text }) });
}

/** "Cancel the event" (edit screen, after a confirmation). */
export async function cancelEventAction(event: Event, actor: Actor) {
  const mail = registrantMail("cancelled");
  let result: Awaited<ReturnType<typeof cancelEvent>>;
  try {
    result = await cancelEvent(event.id, actor, mail.notify);
  } catch (error) {
    log("error", "event not cancelled", { id: event.id, error: (error as Error).message });
    return fail(500, { status: { tone: "error", text: EVENT_MSG.saveError } });
  }
  if (!result) return fail(404, { status: { tone: "error", text: EVENT_MSG.notFound } });
  if (result === "already") return fail(409, { status: { tone: "error", text: EVENT_MSG.alreadyCancelled } });
  mail.send();
  return redirect(`/dashboard/events/${event.id}/edit`, { headers: await flashHeaders({ tone: "success", text: EVENT_MSG.cancelled }) });
}

/** Delete from the list (to the Trash). An upcoming event with people registered is cancelled first, so they are told. */
export async function deleteEventAction(request: Request, actor: Actor, find: (id: number) => Promise<Event | undefined>) {
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = parseId(form.get("id"));
  const failed = "An error occurred while deleting the event. Please try again.";
  if (form.get("intent") !== "delete" || !id) return fail(400, { status: { tone: "error", text: failed } });
  const event = await find(id);
  if (!event) return fail(404, { status: { tone: "error", text: EVENT_MSG.notFound } });
  const waiting = await registrantsToTell(event);
  if (waiting)
    return fail(409, {
      status: {
        tone: "error",
        text: `“${event.title}” has ${waiting === 1 ? "1 person" : `${waiting} people`} registered or waiting. Cancel the event first (on its edit screen), so they are told; then delete it.`,
      },
    });
  try {
    if (!(await trashEvent(id, actor))) return fail(404, { status: { tone: "error", text: EVENT_MSG.notFound } });
  } catch (error) {
    log("error", "event not deleted", { id, error: (error as Error).message });
    return fail(500, { status: { tone: "error", text: failed } });
  }
  const q = listSearch(formText(form, "q"));
  return redirect(listHref("/dashboard/events", q, parsePage(formText(form, "page"))), {
    headers: await flashHeaders({ tone: "success", text: EVENT_MSG.deleted }),
  });
}

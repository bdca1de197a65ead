/**
 * The event form (create and edit; issue 45). Plain form controls first:
 * everything works before hydration and without JavaScript; with it, the
 * venue and webinar fields follow the chosen format, and the schema is
 * checked before the post (client-check.ts).
 */
import { useRef, useState } from "react";
import { EVENT_LISTS, EVENT_SUMMARY_MAX, eventSchema, MAX_GUESTS, type EventFormValues } from "~/lib/forms/event";
import { EVENT_FORMATS, FORMAT_LABELS, practiceAreaLabel, type EventFormat } from "~/lib/events";
import { PRACTICE_AREAS } from "~/lib/practice";
import { ArticleBody } from "./article-body";
import { AuthorsField, SummaryField, type AuthorOption } from "./article-meta-fields";
import { useClientCheck } from "./client-check";
import { bindFields, RadioGroup, SelectField, TextField, useFocusFirstInvalid } from "./fields";
import { EditorForm, SaveBar } from "./editor-form";
import { useHydrated } from "./hydrated";
import { PublishStateFields } from "./publish-state-fields";
import { RepeatingRows, type RowList } from "./repeating-rows";
import { RecordingField, type RecordingUpload } from "./recording-field";
import { useAnnounce } from "./status";
import { labelClass } from "./styles";
import { captionsFileProblem, RECORDING_MSG, recordingFileProblem } from "~/lib/recordings";

const GUEST_COLUMNS = [
  { key: "name", label: "Name", maxLength: 200, wide: true },
  { key: "organisation", label: "Organisation", maxLength: 200, wide: true },
] as const;
const GUESTS: RowList = {
  prefix: "guest",
  legend: "Guest speakers",
  rowLabel: "Guest speaker",
  addLabel: "Add a guest speaker",
  max: MAX_GUESTS,
  hint: "Optional: each guest's name and organisation, shown after the team's speakers.",
  columns: GUEST_COLUMNS,
};

/** The CPD section's fields, two a row: the hours, then the accreditation that lets the public page show them. */
const CPD_FIELDS = [
  {
    name: "cpd_substantive",
    label: "Substantive hours",
    inputMode: "decimal",
    maxLength: 5,
    hint: "In quarter hours, such as 1.5. Empty or 0: none.",
  },
  {
    name: "cpd_professionalism",
    label: "Professionalism hours",
    inputMode: "decimal",
    maxLength: 5,
    hint: "Shown on the public page only once the LSO's accreditation number and date are recorded (or the firm is an accredited provider).",
  },
  { name: "accreditation_number", label: "Accreditation number", maxLength: 100 },
  { name: "accreditation_date", label: "Accreditation date", type: "date" },
] as const;

const FORMAT_OPTIONS = EVENT_FORMATS.map((value) => ({ value, label: FORMAT_LABELS[value] }));
const AREA_OPTIONS = PRACTICE_AREAS.map((value) => ({ value, label: practiceAreaLabel(value) }));

const sectionClass = "space-y-6 rounded border border-line p-4";
const legendClass = `${labelClass} px-1 text-lg`;

export function EventForm(props: {
  mode: "create" | "edit";
  values: EventFormValues;
  errors?: Record<string, string>;
  version?: number;
  speakerChoices: readonly AuthorOption[];
  /** The edit screen's event (a recording file is uploaded for it). */
  eventId?: number;
  /** RECORDING_MAX_BYTES (the server's cap, checked here first). */
  recordingMaxBytes?: number;
}) {
  const maxBytes = props.recordingMaxBytes ?? 0;
  const hydrated = useHydrated();
  const [format, setFormat] = useState<EventFormat | "">(props.values.format);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileKey = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<RecordingUpload>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const announce = useAnnounce();
  const { clientErrors, onSubmit } = useClientCheck({
    schema: eventSchema,
    lists: EVENT_LISTS,
    // The chosen file (not part of the form's data): its name and size, and not both a file and a link.
    extra: (data): Record<string, string> => {
      const captions = data.get("captions_file");
      const captionsProblem = captions instanceof File && captions.name ? captionsFileProblem(captions) : undefined;
      const found: Record<string, string> = captionsProblem ? { captions_file: captionsProblem } : {};
      const file = fileInput.current?.files?.[0];
      if (!file) return found;
      const problem = recordingFileProblem(file, maxBytes);
      if (problem) return { ...found, recording_file: problem };
      const link = data.get("recording_url");
      return typeof link === "string" && link.trim() ? { ...found, recording_url: RECORDING_MSG.both } : found;
    },
  });
  const errors: Record<string, string> = {
    ...(clientErrors ?? props.errors ?? {}),
    ...(uploadError ? { recording_file: uploadError } : {}),
  };
  const formRef = useFocusFirstInvalid(props.errors && Object.keys(props.errors).length ? props.errors : undefined);

  /** Save with a chosen recording file: the file goes first (streamed, with its progress), then the form with its key. */
  function submit(event: React.FormEvent<HTMLFormElement>) {
    setUploadError(null);
    onSubmit(event);
    const file = fileInput.current?.files?.[0];
    if (event.defaultPrevented || !file || props.eventId === undefined) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === "intent" && submitter.value !== "save") return;
    event.preventDefault();
    const form = event.currentTarget;
    const request = new XMLHttpRequest();
    request.open("POST", `/dashboard/events/${props.eventId}/recording`);
    request.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    request.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
    request.upload.onprogress = (e) => setUpload({ percent: e.lengthComputable ? Math.floor((e.loaded / e.total) * 100) : 0 });
    const failed = (text: string) => {
      setUpload(null);
      setUploadError(text);
      announce({ tone: "error", text });
      setTimeout(() => fileInput.current?.focus(), 0);
    };
    request.onerror = () => failed(RECORDING_MSG.notReceived);
    request.onload = () => {
      let answer: { recording?: string; status?: { text: string } } = {};
      try {
        answer = JSON.parse(request.responseText) as typeof answer;
      } catch {
        /* not JSON (a proxy's page): the message below */
      }
      if (!answer.recording)
        return failed(answer.status?.text ?? (request.status === 413 ? RECORDING_MSG.tooLarge(maxBytes) : RECORDING_MSG.notReceived));
      setUpload({ percent: 100 });
      // The stored file's key goes with the form; the file itself is not sent again.
      fileKey.current!.value = answer.recording;
      const remove = form.elements.namedItem("recording_remove");
      if (remove instanceof HTMLInputElement) remove.checked = false;
      fileInput.current!.value = "";
      form.requestSubmit(submitter ?? undefined);
      setUpload(null);
    };
    setUpload({ percent: 0 });
    request.send(file);
  }
  const v = props.values;
  const field = bindFields(v, errors);
  const showVenue = !hydrated || format !== "webinar";
  const showWebinar = !hydrated || (format !== "in-person" && format !== "");

  return (
    <EditorForm formRef={formRef} onSubmit={submit} version={props.version}>
      <input type="hidden" name="intent" value="save" />
      <TextField {...field("title")} label="Title" required maxLength={300} />
      <SummaryField
        defaultValue={v.summary}
        error={errors.summary}
        rows={2}
        maxLength={EVENT_SUMMARY_MAX}
        hint="Optional, plain text: shown on the events list, in the calendar file and as the page description."
      />
      <ArticleBody
        defaultValue={v.copy}
        error={errors.copy}
        label="Description"
        mode="list"
        hint="What the program covers and who it is for: bold, italic, lists and links. Without the editor, separate paragraphs with an empty line."
      />

      <fieldset className={sectionClass}>
        <legend className={legendClass}>When</legend>
        <div className="grid gap-6 sm:grid-cols-2">
          <TextField {...field("starts_at")} label="Start" type="datetime-local" required hint="Toronto time." />
          <TextField {...field("ends_at")} label="End" type="datetime-local" required hint="Toronto time." />
        </div>
        <TextField
          {...field("registration_closes_at")}
          label="Registration closes"
          type="datetime-local"
          hint="Optional (Toronto time): registration closes at the start when empty."
        />
        <p className="text-sm text-muted">
          Changing the start or end of an event with registrations tells everyone registered or waiting, with an updated calendar entry.
        </p>
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Format and place</legend>
        <RadioGroup {...field("format")} legend="Format" options={FORMAT_OPTIONS} wrap onChange={setFormat} />
        <SelectField {...field("practice_area")} label="Practice area" required prompt="Choose a practice area…" options={AREA_OPTIONS} />
        <div hidden={!showVenue} className="space-y-6">
          <p className="text-sm text-muted">The venue: required for an event held in person (in person or hybrid).</p>
          <TextField {...field("venue_name")} label="Venue" maxLength={200} />
          <TextField {...field("venue_street")} label="Street address" maxLength={200} />
          <div className="grid gap-6 sm:grid-cols-3">
            <TextField {...field("venue_city")} label="City" maxLength={100} />
            <TextField {...field("venue_region")} label="Province" maxLength={100} />
            <TextField {...field("venue_postal_code")} label="Postal code" maxLength={20} />
          </div>
        </div>
        <div hidden={!showWebinar}>
          <TextField
            {...field("webinar_url")}
            label="Webinar link"
            type="url"
            inputMode="url"
            hint="For a webinar or a hybrid event: e-mailed to registered attendees only, never shown on the public page."
          />
        </div>
        <TextField
          {...field("capacity")}
          label="Places"
          inputMode="numeric"
          maxLength={6}
          hint="Optional: when the places are taken, new registrations join the waiting list. Empty for no limit."
        />
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Speakers</legend>
        <AuthorsField
          name="speakers"
          legend="Speakers from the team"
          hint="Linked to their profiles on the event's page (optional); hidden members are named once they are visible."
          choices={props.speakerChoices}
          chosen={v.speakers}
          error={errors.speakers}
        />
        <RepeatingRows {...GUESTS} initial={v.guests} error={errors.guests} />
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>CPD hours (Law Society of Ontario)</legend>
        <div className="grid gap-6 sm:grid-cols-2">
          {CPD_FIELDS.map(({ name, ...spec }) => (
            <TextField key={name} {...field(name)} {...spec} />
          ))}
        </div>
      </fieldset>

      <RecordingField
        eventId={props.eventId}
        hydrated={hydrated}
        values={v}
        maxBytes={maxBytes}
        errors={errors}
        fileInput={fileInput}
        fileKey={fileKey}
        upload={upload}
        className={sectionClass}
        legendClass={legendClass}
      />

      <PublishStateFields status={v.status} publishAt={v.publish_at} errors={errors} noun="event" />
      <SaveBar label={props.mode === "create" ? "ADD EVENT" : "SAVE CHANGES"} waiting={!!upload} />
    </EditorForm>
  );
}

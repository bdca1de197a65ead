/**
 * The event form's "Recording" section (issue 45): an uploaded file or a link.
 * A chosen file is sent on Save, before the form, to the streamed upload
 * endpoint (event-recording-upload.ts) with its progress shown; the answer's
 * key goes into the hidden `recording_file` field and the form is then sent
 * as usual. Uploading needs JavaScript (a recording is far larger than a
 * form may be): without it the screen says so and the link still works.
 * Its captions (a WebVTT file: the video's captions, or an audio recording's
 * transcript) go with the form itself, as a plain file field (the form is
 * sent as multipart); a video without them is flagged (AODA, WCAG 1.2.2).
 */
import type { RefObject } from "react";
import type { EventFormValues } from "~/lib/forms/event";
import {
  CAPTIONS_ACCEPT,
  CAPTIONS_MAX_BYTES,
  CAPTIONS_MSG,
  isAudioRecording,
  RECORDING_ACCEPT,
  recordingPath,
  sizeText,
} from "~/lib/recordings";
import { fieldAria, FieldError, FieldFrame, TextField } from "./fields";
import { fileInputClass, linkClass } from "./styles";

export type RecordingUpload = { percent: number } | null;

export function RecordingField({
  fileInput,
  fileKey,
  ...props
}: {
  /** The edit screen's event (none on "Add event": the file is uploaded once the event is saved). */
  eventId?: number;
  hydrated: boolean;
  /** The form's recording values (recording_captions: the saved captions' storage key, '' for none). */
  values: Pick<EventFormValues, "recording_url" | "recording_file" | "recording_remove" | "recording_captions" | "captions_remove">;
  maxBytes: number;
  errors: Record<string, string>;
  fileInput: RefObject<HTMLInputElement | null>;
  fileKey: RefObject<HTMLInputElement | null>;
  upload: RecordingUpload;
  className: string;
  legendClass: string;
}) {
  const { recording_file: file, recording_captions: captions } = props.values;
  const error = props.errors.recording_file;
  const captionsError = props.errors.captions_file;
  const audio = isAudioRecording(file);
  return (
    <fieldset className={props.className}>
      <legend className={props.legendClass}>Recording</legend>
      <p className="text-sm text-muted">
        After the event: a video or audio file uploaded here, or a link to the recording elsewhere. It is shown on the event's page once the
        event is over.
      </p>
      <input ref={fileKey} type="hidden" name="recording_file" defaultValue={file} />
      <input type="hidden" name="recording_captions" value={captions} />
      {file ? (
        <div className="space-y-2">
          <p>
            {audio ? "An audio" : "A video"} recording is uploaded:{" "}
            <a href={recordingPath(file)} className={linkClass} target="_blank" rel="noreferrer">
              Open the uploaded recording
            </a>{" "}
            <span className="text-sm text-muted">(it opens once the event is published and over)</span>
          </p>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="recording_remove" defaultChecked={props.values.recording_remove} className="size-4" />
            Remove the uploaded recording (when you save)
          </label>
        </div>
      ) : null}
      {props.eventId === undefined ? (
        <p className="text-sm text-muted">To upload a recording file, add the event first, then open it again.</p>
      ) : props.hydrated ? (
        <FieldFrame
          id="field-recording_file"
          label={file ? "Replace with another file" : "Recording file"}
          hint={
            <>
              MP4, M4A, MP3 or WebM, up to {sizeText(props.maxBytes)}: uploaded when you save
              {file ? ", in place of the file above" : ""}.
            </>
          }
          error={error}
          after={
            props.upload ? (
              <div role="status" className="mt-2">
                <label htmlFor="recording-progress" className="text-sm font-semibold">
                  Uploading the recording… {props.upload.percent}%
                </label>
                <progress id="recording-progress" max={100} value={props.upload.percent} className="mt-1 block w-full" />
              </div>
            ) : null
          }
        >
          <input
            ref={fileInput}
            id="field-recording_file"
            type="file"
            accept={RECORDING_ACCEPT}
            {...fieldAria("field-recording_file", { error, hint: true })}
            className={fileInputClass}
          />
        </FieldFrame>
      ) : (
        <div>
          <p className="text-sm font-semibold">Uploading a recording file needs JavaScript in your browser.</p>
          <p className="text-sm text-muted">
            Turn JavaScript on and reload this page to upload a file, or give the recording's link below.
          </p>
          <FieldError id="field-recording_file-error" error={error} />
        </div>
      )}
      {props.eventId === undefined ? null : (
        <div className="space-y-2">
          {file && !captions ? (
            <div className="rounded border-l-4 border-error bg-[#fbeeee] px-4 py-3">
              <p className="font-semibold text-error">
                {audio ? "Not accessible without a transcript" : "Not accessible without captions"}
              </p>
              <p className="text-sm">{audio ? CAPTIONS_MSG.missingTranscript : CAPTIONS_MSG.missing}</p>
            </div>
          ) : null}
          {captions ? (
            <div className="space-y-2">
              <p>
                {audio ? "A transcript" : "Captions"} (WebVTT) {audio ? "is" : "are"} attached:{" "}
                <a href={recordingPath(captions)} className={linkClass} target="_blank" rel="noreferrer">
                  Open the captions file
                </a>{" "}
                <span className="text-sm text-muted">(it opens with the recording)</span>
              </p>
              <label className="flex items-center gap-2">
                <input type="checkbox" name="captions_remove" defaultChecked={props.values.captions_remove} className="size-4" />
                Remove the captions (when you save)
              </label>
            </div>
          ) : null}
          <FieldFrame
            id="field-captions_file"
            label={captions ? "Replace the captions with another file" : "Captions or transcript file (.vtt)"}
            hint={
              <>
                For an uploaded recording: a WebVTT file (.vtt, up to {sizeText(CAPTIONS_MAX_BYTES)}), saved with the event. A video shows
                it as captions; the page also shows its words as a transcript, which is what an audio recording needs.
              </>
            }
            error={captionsError}
          >
            <input
              id="field-captions_file"
              name="captions_file"
              type="file"
              accept={CAPTIONS_ACCEPT}
              {...fieldAria("field-captions_file", { error: captionsError, hint: true })}
              className={fileInputClass}
            />
          </FieldFrame>
        </div>
      )}
      <TextField
        name="recording_url"
        label="Recording link"
        type="url"
        inputMode="url"
        defaultValue={props.values.recording_url}
        error={props.errors.recording_url}
        hint="Or the link to the recording (a video site, for example), in place of a file."
      />
    </fieldset>
  );
}

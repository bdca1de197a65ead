/** The team member form (create and edit): one column, labels above, errors below, save always in view. */
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { EXPERTISE_CHOICES, PRACTICE_AREAS } from "~/lib/practice";
import { AREA_LABELS, TEAM_LISTS, teamMemberSchema, type TeamFormValues } from "~/lib/forms/team";
import { ChipPicker } from "./chip-picker";
import { useClientCheck } from "./client-check";
import { focusFirstInvalid, TextField } from "./fields";
import { ImageInput } from "./image-input";
import { StaffEditor } from "./staff-editor";
import { btnPrimary, labelClass } from "./styles";

const AREA_CHOICES = PRACTICE_AREAS.map((value) => ({ value, label: AREA_LABELS[value] }));
const EXPERTISE = EXPERTISE_CHOICES.map((value) => ({ value, label: value }));

export function TeamForm(props: {
  mode: "create" | "edit";
  values: TeamFormValues;
  errors?: Record<string, string>;
  currentImage?: { url: string; alt: string };
  staffMessage?: string;
  staffOpen?: boolean;
  /** The version the form shows (edit): a save over a newer one is refused. */
  version?: number;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { clientErrors, onSubmit } = useClientCheck({ schema: teamMemberSchema, lists: TEAM_LISTS });
  const errors = clientErrors ?? props.errors ?? {};
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (props.errors && Object.keys(props.errors).length) focusFirstInvalid(formRef.current);
  }, [props.errors]);
  const v = props.values;

  return (
    <Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="page-title"
      className="space-y-6"
    >
      {/* The default button for Enter in any field, before the staff buttons. */}
      <button
        type="submit"
        name="intent"
        value="save"
        hidden
        tabIndex={-1}
        aria-label={props.mode === "create" ? "ADD TEAM MEMBER" : "SAVE CHANGES"}
      />
      {props.version ? <input type="hidden" name="version" value={props.version} /> : null}
      <TextField
        name="full_name"
        label="Full name"
        required
        defaultValue={v.full_name}
        error={errors.full_name}
        maxLength={200}
        autoComplete="off"
      />
      <TextField
        name="title"
        label="Title"
        required
        defaultValue={v.title}
        error={errors.title}
        maxLength={200}
        hint="For example Partner or Associate."
      />
      <TextField name="email" label="Email" type="email" required defaultValue={v.email} error={errors.email} maxLength={320} />
      <div className="grid gap-6 sm:grid-cols-2">
        <TextField
          name="extension"
          label="Extension"
          inputMode="numeric"
          required
          defaultValue={v.extension}
          error={errors.extension}
          maxLength={6}
          hint="Digits only."
        />
        <TextField name="mobile" label="Mobile" type="tel" defaultValue={v.mobile} error={errors.mobile} maxLength={40} hint="Optional." />
      </div>
      <TextField name="desc" label="Bio" multiline rows={8} required defaultValue={v.desc} error={errors.desc} maxLength={20000} />
      <ImageInput label="Photo" portrait error={errors.photo} current={props.currentImage} />
      {props.mode === "edit" && props.currentImage ? (
        <label className="flex items-center gap-2">
          <input type="checkbox" name="remove_photo" className="size-4" /> Remove the current photo (when no new one is chosen)
        </label>
      ) : null}
      <ChipPicker
        name="AOP"
        legend="Areas of practice"
        selectLabel="Area of practice"
        addLabel="Add area of practice"
        choices={AREA_CHOICES}
        initial={v.AOP}
        error={errors.AOP}
      />
      <ChipPicker
        name="area_details"
        legend="Fields of expertise"
        selectLabel="Field of expertise"
        addLabel="Add field of expertise"
        choices={EXPERTISE}
        initial={v.area_details}
        error={errors.area_details}
      />
      <fieldset>
        <legend className={labelClass}>Public profile</legend>
        <div className="mt-1 flex flex-wrap gap-6">
          {(["visible", "hidden"] as const).map((option) => (
            <label key={option} className="flex items-center gap-2">
              <input type="radio" name="visibility" value={option} defaultChecked={v.visibility === option} className="size-4" />
              {option === "visible" ? "Visible" : "Hidden"}
            </label>
          ))}
        </div>
        <div className="mt-4 grid gap-6 sm:grid-cols-2">
          <TextField
            name="visible_from"
            label="Visible from"
            type="datetime-local"
            defaultValue={v.visible_from}
            error={errors.visible_from}
            hint="Optional, Toronto time: a hidden profile is shown at this time."
          />
          <TextField
            name="hidden_from"
            label="Hidden from"
            type="datetime-local"
            defaultValue={v.hidden_from}
            error={errors.hidden_from}
            hint="Optional, Toronto time: the profile is taken down at this time."
          />
        </div>
      </fieldset>
      <StaffEditor initial={v.staff} draft={v.new_staff} open={props.staffOpen} message={props.staffMessage} error={errors.staff} />
      <div className="sticky bottom-0 z-10 -mx-4 border-t border-line bg-ground/95 px-4 py-3">
        <button type="submit" name="intent" value="save" className={btnPrimary} disabled={busy}>
          {props.mode === "create" ? "ADD TEAM MEMBER" : "SAVE CHANGES"}
        </button>
      </div>
    </Form>
  );
}

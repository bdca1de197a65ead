/** The team member form (create and edit): one column, labels above, errors below, save always in view. */
import { EXPERTISE_CHOICES, PRACTICE_AREAS } from "~/lib/practice";
import {
  AREA_LABELS,
  MAX_ADMISSIONS,
  MAX_EDUCATION,
  TEAM_LISTS,
  teamFormStatus,
  teamMemberSchema,
  type TeamFormValues,
} from "~/lib/forms/team";
import { EXPERT_CONFIRM_LABEL, LANGUAGES } from "~/lib/profile";
import { ChipPicker } from "./chip-picker";
import { useClientCheck } from "./client-check";
import { bindFields, FieldError, TextField, useFocusFirstInvalid } from "./fields";
import { EditorForm, SaveBar } from "./editor-form";
import { ImageInput } from "./image-input";
import { MattersField } from "./matters-field";
import { RepeatingRows, type RowList } from "./repeating-rows";
import { StaffEditor } from "./staff-editor";
import { labelClass } from "./styles";

const ADMISSION_COLUMNS = [
  { key: "jurisdiction", label: "Jurisdiction", maxLength: 120, wide: true },
  { key: "year", label: "Year", numeric: true, maxLength: 4 },
] as const;
const EDUCATION_COLUMNS = [
  { key: "degree", label: "Degree", maxLength: 160, wide: true },
  { key: "school", label: "School", maxLength: 160, wide: true },
  { key: "year", label: "Year", numeric: true, maxLength: 4 },
] as const;
const ADMISSIONS: RowList = {
  prefix: "admission",
  legend: "Bar admissions",
  rowLabel: "Bar admission",
  addLabel: "Add a bar admission",
  max: MAX_ADMISSIONS,
  hint: "Optional: each jurisdiction (for example Ontario) and the year of admission.",
  columns: ADMISSION_COLUMNS,
};
const EDUCATION: RowList = {
  prefix: "education",
  legend: "Education",
  rowLabel: "Education",
  addLabel: "Add a degree",
  max: MAX_EDUCATION,
  hint: "Optional: degree (for example J.D.), school and year.",
  columns: EDUCATION_COLUMNS,
};

/** The two chip lists, one after the other: areas of practice, then fields of expertise. */
const CHIP_LISTS = [
  {
    name: "AOP",
    legend: "Areas of practice",
    selectLabel: "Area of practice",
    addLabel: "Add area of practice",
    choices: PRACTICE_AREAS.map((value) => ({ value, label: AREA_LABELS[value] })),
  },
  {
    name: "area_details",
    legend: "Fields of expertise",
    selectLabel: "Field of expertise",
    addLabel: "Add field of expertise",
    choices: EXPERTISE_CHOICES.map((value) => ({ value, label: value })),
  },
] as const;

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
  const { clientErrors, onSubmit } = useClientCheck({ schema: teamMemberSchema, lists: TEAM_LISTS, status: teamFormStatus });
  const errors = clientErrors ?? props.errors ?? {};
  const formRef = useFocusFirstInvalid(props.errors && Object.keys(props.errors).length ? props.errors : undefined);
  const v = props.values;
  const field = bindFields(v, errors);
  const saveLabel = props.mode === "create" ? "ADD TEAM MEMBER" : "SAVE CHANGES";

  return (
    <EditorForm
      formRef={formRef}
      onSubmit={onSubmit}
      version={props.version}
      // The default button for Enter in any field, before the staff buttons.
      lead={<button type="submit" name="intent" value="save" hidden tabIndex={-1} aria-label={saveLabel} />}
    >
      <TextField {...field("full_name")} label="Full name" required maxLength={200} autoComplete="off" />
      <TextField {...field("title")} label="Title" required maxLength={200} hint="For example Partner or Associate." />
      <TextField {...field("email")} label="Email" type="email" required maxLength={320} />
      <div className="grid gap-6 sm:grid-cols-2">
        <TextField {...field("extension")} label="Extension" inputMode="numeric" required maxLength={6} hint="Digits only." />
        <TextField {...field("mobile")} label="Mobile" type="tel" maxLength={40} hint="Optional." />
      </div>
      <TextField {...field("desc")} label="Bio" multiline rows={8} required maxLength={20000} />
      {errors.confirm_expert || v.confirm_expert ? (
        <div className="rounded border border-line bg-soft p-3">
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              name="confirm_expert"
              defaultChecked={v.confirm_expert}
              aria-invalid={errors.confirm_expert ? true : undefined}
              aria-describedby={errors.confirm_expert ? "field-confirm_expert-error" : undefined}
              className="mt-1 size-4 shrink-0"
            />
            <span>{EXPERT_CONFIRM_LABEL}</span>
          </label>
          <FieldError id="field-confirm_expert-error" error={errors.confirm_expert} />
        </div>
      ) : null}
      <ImageInput label="Photo" portrait error={errors.photo} current={props.currentImage} />
      {props.mode === "edit" && props.currentImage ? (
        <label className="flex items-center gap-2">
          <input type="checkbox" name="remove_photo" className="size-4" /> Remove the current photo (when no new one is chosen)
        </label>
      ) : null}
      {CHIP_LISTS.map((list) => (
        <ChipPicker key={list.name} {...list} initial={v[list.name]} error={errors[list.name]} />
      ))}
      <h2 className="border-t border-line pt-6 font-serif text-xl font-semibold">Credentials</h2>
      <RepeatingRows {...ADMISSIONS} initial={v.admissions} error={errors.admissions} />
      <fieldset aria-describedby={errors.languages ? "field-languages-error" : undefined}>
        <legend className={labelClass}>Languages</legend>
        <div className="mt-2 grid grid-cols-2 gap-1 sm:grid-cols-4">
          {LANGUAGES.map((l) => (
            <label key={l.code} className="flex items-center gap-2">
              <input type="checkbox" name="languages" value={l.code} defaultChecked={v.languages.includes(l.code)} className="size-4" />
              {l.label}
            </label>
          ))}
        </div>
        <FieldError id="field-languages-error" error={errors.languages} />
      </fieldset>
      <TextField
        {...field("other_languages")}
        label="Other languages"
        maxLength={200}
        hint="Optional: any language not in the list, separated by commas."
      />
      <RepeatingRows {...EDUCATION} initial={v.education} error={errors.education} />
      <fieldset>
        <legend className={labelClass}>Law Society certified specialist</legend>
        <p className="mt-1 text-sm text-muted">
          Only for a lawyer certified by the Law Society of Ontario as a Certified Specialist: the area as the certificate names it, and the
          year certified. Without it, “specialist” may not be used in the title or bio (Rule 4.3-1).
        </p>
        <div className="mt-2 grid gap-6 sm:grid-cols-[1fr_10rem]">
          <TextField {...field("specialist_area")} label="Specialist area" maxLength={120} hint="For example Civil Litigation." />
          <TextField {...field("specialist_year")} label="Year certified" inputMode="numeric" maxLength={4} />
        </div>
      </fieldset>
      <TextField
        {...field("memberships")}
        label="Professional memberships"
        multiline
        rows={4}
        maxLength={4000}
        hint="Optional: one a line, for example Ontario Bar Association."
      />
      <MattersField defaultValue={v.matters} error={errors.matters} />
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
            {...field("visible_from")}
            label="Visible from"
            type="datetime-local"
            hint="Optional, Toronto time: a hidden profile is shown at this time."
          />
          <TextField
            {...field("hidden_from")}
            label="Hidden from"
            type="datetime-local"
            hint="Optional, Toronto time: the profile is taken down at this time."
          />
        </div>
      </fieldset>
      <StaffEditor initial={v.staff} draft={v.new_staff} open={props.staffOpen} message={props.staffMessage} error={errors.staff} />
      <SaveBar label={saveLabel} intent="save" />
    </EditorForm>
  );
}

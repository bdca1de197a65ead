/**
 * Support staff of a team member: the list (each entry removable) and the
 * add form hidden behind ADD NEW STAFF MEMBER; SAVE NEW STAFF MEMBER commits
 * an entry when all four fields are filled. Entries are posted as repeated
 * hidden fields staff_name / staff_title / staff_email / staff_extension.
 * Without JavaScript the buttons post the form (intent add-staff /
 * remove-staff:i) and the server sends it back with the list changed.
 */
import { Plus, X } from "lucide-react";
import { useRef, useState } from "react";
import { checkStaffEntry, type StaffEntry } from "~/lib/forms/team";
import { FieldError } from "./fields";
import { useHydrated } from "./hydrated";
import { btnPrimary, btnSecondary, inputClass, labelClass } from "./styles";
import { useAnnounce } from "./status";

const EMPTY = { name: "", title: "", email: "", extension: "" };
const FIELDS = [
  { key: "name", label: "Staff name", type: "text" },
  { key: "title", label: "Staff title", type: "text" },
  { key: "email", label: "Staff email", type: "email" },
  { key: "extension", label: "Staff extension", type: "text" },
] as const;

export function StaffEditor(props: { initial: StaffEntry[]; draft?: StaffEntry; open?: boolean; message?: string; error?: string }) {
  const hydrated = useHydrated();
  const announce = useAnnounce();
  const [staff, setStaff] = useState<StaffEntry[]>(props.initial);
  const [open, setOpen] = useState(!!props.open);
  const [draft, setDraft] = useState<StaffEntry>(props.draft ?? EMPTY);
  const [message, setMessage] = useState(props.message ?? "");
  const toggle = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLInputElement>(null);

  function save() {
    const checked = checkStaffEntry(draft);
    if (!checked.ok) {
      setMessage(checked.message);
      announce({ tone: "error", text: checked.message });
      return;
    }
    setStaff([...staff, checked.value]);
    setDraft(EMPTY);
    setMessage("");
    announce(null);
    setOpen(false);
    toggle.current?.focus();
  }

  const list = (
    <ul className="mt-2 divide-y divide-line rounded border border-line bg-white" aria-label="Support staff">
      {staff.map((s, i) => (
        <li key={`${i}-${s.email}`} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
          <span>
            <span className="font-semibold">{s.name}</span>, {s.title} · {s.email} · ext. {s.extension}
          </span>
          <input type="hidden" name="staff_name" value={s.name} />
          <input type="hidden" name="staff_title" value={s.title} />
          <input type="hidden" name="staff_email" value={s.email} />
          <input type="hidden" name="staff_extension" value={s.extension} />
          <button
            type={hydrated ? "button" : "submit"}
            name={hydrated ? undefined : "intent"}
            value={hydrated ? undefined : `remove-staff:${i}`}
            formNoValidate
            aria-label={`Remove ${s.name}`}
            className="inline-flex items-center gap-1 rounded px-2 py-1 text-sm font-semibold text-error hover:bg-soft"
            onClick={
              hydrated
                ? () => {
                    setStaff(staff.filter((_, j) => j !== i));
                    toggle.current?.focus();
                  }
                : undefined
            }
          >
            <X aria-hidden="true" className="size-4" /> Remove
          </button>
        </li>
      ))}
    </ul>
  );

  const messageId = "new-staff-message";
  const fields = (
    <div className="grid gap-3 sm:grid-cols-2">
      {FIELDS.map((f, i) => (
        <div key={f.key}>
          <label htmlFor={`new-staff-${f.key}`} className={labelClass}>
            {f.label}
          </label>
          <input
            ref={i === 0 ? first : undefined}
            id={`new-staff-${f.key}`}
            name={`new_staff_${f.key}`}
            type={f.type}
            inputMode={f.key === "extension" ? "numeric" : undefined}
            autoComplete="off"
            maxLength={f.key === "extension" ? 20 : 200}
            className={inputClass}
            aria-describedby={message ? messageId : undefined}
            aria-invalid={message && !draft[f.key].trim() ? true : undefined}
            {...(hydrated
              ? {
                  value: draft[f.key],
                  onChange: (e: React.ChangeEvent<HTMLInputElement>) => setDraft({ ...draft, [f.key]: e.target.value }),
                  onKeyDown: (e: React.KeyboardEvent) => {
                    if (e.key === "Enter") {
                      e.preventDefault();
                      save();
                    }
                  },
                }
              : { defaultValue: draft[f.key] })}
          />
        </div>
      ))}
    </div>
  );

  return (
    <fieldset>
      <legend className={labelClass}>Support staff</legend>
      {staff.length ? list : <p className="mt-1 text-sm text-muted">No support staff added.</p>}
      <FieldError id="staff-error" error={props.error} />
      {hydrated ? (
        <div className="mt-3">
          <button
            ref={toggle}
            type="button"
            className={btnSecondary}
            aria-expanded={open}
            aria-controls="new-staff"
            onClick={() => {
              setOpen(!open);
              if (!open) setTimeout(() => first.current?.focus(), 0);
            }}
          >
            <Plus aria-hidden="true" className="size-4" /> ADD NEW STAFF MEMBER
          </button>
          <div
            id="new-staff"
            hidden={!open}
            role="group"
            aria-label="New support staff member"
            className="mt-3 rounded border border-line bg-soft p-4"
          >
            {fields}
            <p id={messageId} className="mt-2 text-sm font-semibold text-error">
              {message}
            </p>
            <button type="button" className={`${btnPrimary} mt-2`} onClick={save}>
              SAVE NEW STAFF MEMBER
            </button>
          </div>
        </div>
      ) : (
        <details open={open} className="mt-3">
          <summary className={`${btnSecondary} cursor-pointer list-none`}>ADD NEW STAFF MEMBER</summary>
          <div className="mt-3 rounded border border-line bg-soft p-4">
            {fields}
            {message ? (
              <p id={messageId} className="mt-2 text-sm font-semibold text-error">
                {message}
              </p>
            ) : null}
            <button type="submit" name="intent" value="add-staff" formNoValidate className={`${btnPrimary} mt-2`}>
              SAVE NEW STAFF MEMBER
            </button>
          </div>
        </details>
      )}
    </fieldset>
  );
}

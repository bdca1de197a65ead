/**
 * Areas of practice and fields of expertise as chips: choose in the list,
 * Add (only if chosen and not already present), remove with ×. Each chip is
 * a hidden input; without JavaScript the same values are checkboxes.
 */
import { X } from "lucide-react";
import { useId, useRef, useState } from "react";
import { FieldError } from "./fields";
import { useHydrated } from "./hydrated";
import { btnSecondary, inputClass, labelClass } from "./styles";

type Choice = { value: string; label: string };

export function ChipPicker(props: {
  name: string;
  legend: string;
  selectLabel: string;
  addLabel: string;
  choices: readonly Choice[];
  initial: readonly string[];
  error?: string;
}) {
  const hydrated = useHydrated();
  const id = useId();
  // Stored values match the choices case-insensitively; an unknown one stays visible (and removable), never silently dropped.
  const [selected, setSelected] = useState<string[]>(() => [
    ...new Set(props.initial.map((v) => props.choices.find((c) => c.value.toLowerCase() === v.trim().toLowerCase())?.value ?? v)),
  ]);
  const unknown = selected.filter((v) => !props.choices.some((c) => c.value === v));
  const [pick, setPick] = useState("");
  const select = useRef<HTMLSelectElement>(null);
  const labelOf = (value: string) => props.choices.find((c) => c.value === value)?.label ?? value;
  const errorId = `${id}-error`;

  if (!hydrated) {
    return (
      <fieldset aria-describedby={props.error ? errorId : undefined}>
        <legend className={labelClass}>{props.legend}</legend>
        <div className="mt-2 grid gap-1 sm:grid-cols-2">
          {[...props.choices, ...unknown.map((v) => ({ value: v, label: v }))].map((c) => (
            <label key={c.value} className="flex items-center gap-2">
              <input type="checkbox" name={props.name} value={c.value} defaultChecked={selected.includes(c.value)} className="size-4" />
              {c.label}
            </label>
          ))}
        </div>
        <FieldError id={errorId} error={props.error} />
      </fieldset>
    );
  }

  function add() {
    if (!pick || selected.includes(pick)) return;
    setSelected([...selected, pick]);
    setPick("");
  }

  return (
    <fieldset aria-describedby={props.error ? errorId : undefined}>
      <legend className={labelClass}>{props.legend}</legend>
      <div className="mt-1 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-select`} className="text-sm text-muted">
            {props.selectLabel}
          </label>
          <select id={`${id}-select`} ref={select} value={pick} onChange={(e) => setPick(e.target.value)} className={inputClass}>
            <option value="">Select…</option>
            {props.choices.map((c) => (
              <option key={c.value} value={c.value} disabled={selected.includes(c.value)}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={btnSecondary} onClick={add} aria-label={props.addLabel}>
          Add
        </button>
      </div>
      {selected.length ? (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={props.legend}>
          {selected.map((value) => (
            <li
              key={value}
              className="inline-flex items-center gap-1 rounded-full border border-accent bg-white py-1 pr-1 pl-3 text-sm text-ink"
            >
              {labelOf(value)}
              <input type="hidden" name={props.name} value={value} />
              <button
                type="button"
                aria-label={`Remove ${labelOf(value)}`}
                className="rounded-full p-1 text-accent hover:bg-soft"
                onClick={() => {
                  setSelected(selected.filter((v) => v !== value));
                  select.current?.focus();
                }}
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-muted">None added yet.</p>
      )}
      <FieldError id={errorId} error={props.error} />
    </fieldset>
  );
}

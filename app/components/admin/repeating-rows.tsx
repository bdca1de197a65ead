/**
 * Rows of a few fields each (bar admissions, education), posted as parallel
 * repeated fields (`admission_jurisdiction`, `admission_year`…); blank rows
 * are ignored by the form's schema. Without JavaScript the filled rows and
 * SPARE_ROWS blank ones are shown (more after a save); with it, "Add" adds a
 * row and each row can be removed.
 */
import { Plus, X } from "lucide-react";
import { useRef, useState } from "react";
import { SPARE_ROWS } from "~/lib/forms/team";
import { FieldError } from "./fields";
import { useHydrated } from "./hydrated";
import { btnSecondary, inputClass, labelClass } from "./styles";

type Column = { key: string; label: string; numeric?: boolean; maxLength: number; wide?: boolean };

/** What a list of rows is (a form's constant): its fields, names and words. */
export type RowList = {
  /** Field names are `${prefix}_${column.key}`. */
  prefix: string;
  legend: string;
  /** "Bar admission" -> groups "Bar admission 1", button "Add a bar admission". */
  rowLabel: string;
  addLabel: string;
  columns: readonly Column[];
  max: number;
  hint?: string;
};

/** A list (`<RepeatingRows {...ADMISSIONS} initial={…} error={…} />`) with the rows it holds and its error. */
export function RepeatingRows(props: RowList & { initial: readonly Record<string, string>[]; error?: string }) {
  const hydrated = useHydrated();
  const blank = () => Object.fromEntries(props.columns.map((c) => [c.key, ""]));
  const [rows, setRows] = useState<Record<string, string>[]>(() =>
    props.initial.length ? props.initial.map((r) => ({ ...r })) : [blank()],
  );
  // A key per row that stays with it when another is removed.
  const [ids, setIds] = useState<number[]>(() => rows.map((_, i) => i));
  const list = useRef<HTMLDivElement>(null);
  const errorId = `${props.prefix}-error`;
  /** An empty cell of a filled row is what the row's error is about (its message is read with it). */
  const invalid = (row: Record<string, string>, key: string, i: number) =>
    !!props.error && (row[key] ?? "").trim() === "" && i < Math.max(1, props.initial.length);
  const hintId = `${props.prefix}-hint`;
  // Without JavaScript: the filled rows and spare blank ones.
  const shown = hydrated ? rows : [...props.initial, ...Array.from({ length: SPARE_ROWS }, blank)];
  const shownIds = hydrated ? ids : shown.map((_, i) => i);

  return (
    <fieldset aria-describedby={[props.hint ? hintId : "", props.error ? errorId : ""].filter(Boolean).join(" ") || undefined}>
      <legend className={labelClass}>{props.legend}</legend>
      {props.hint ? (
        <p id={hintId} className="mt-1 text-sm text-muted">
          {props.hint}
        </p>
      ) : null}
      <div ref={list} className="mt-2 space-y-3">
        {shown.map((row, i) => (
          <div
            key={shownIds[i]}
            role="group"
            aria-label={`${props.rowLabel} ${i + 1}`}
            className="flex flex-wrap items-end gap-3 rounded border border-line bg-white p-3"
          >
            {props.columns.map((c) => {
              const id = `${props.prefix}-${c.key}-${shownIds[i]}`;
              return (
                <div key={c.key} className={c.wide ? "min-w-48 flex-[3]" : "w-28 flex-none"}>
                  <label htmlFor={id} className="text-sm text-muted">
                    {c.label}
                  </label>
                  <input
                    id={id}
                    name={`${props.prefix}_${c.key}`}
                    inputMode={c.numeric ? "numeric" : undefined}
                    maxLength={c.maxLength}
                    autoComplete="off"
                    aria-invalid={invalid(row, c.key, i) ? true : undefined}
                    aria-describedby={invalid(row, c.key, i) ? errorId : undefined}
                    className={inputClass}
                    {...(hydrated
                      ? {
                          value: row[c.key] ?? "",
                          onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
                            setRows(rows.map((r, j) => (j === i ? { ...r, [c.key]: e.target.value } : r))),
                        }
                      : { defaultValue: row[c.key] ?? "" })}
                  />
                </div>
              );
            })}
            {hydrated ? (
              <button
                type="button"
                aria-label={`Remove ${props.rowLabel.toLowerCase()} ${i + 1}`}
                className="inline-flex items-center gap-1 rounded px-2 py-2 text-sm font-semibold text-error hover:bg-soft"
                onClick={() => {
                  setRows(rows.filter((_, j) => j !== i));
                  setIds(ids.filter((_, j) => j !== i));
                  list.current?.closest("fieldset")?.querySelector<HTMLButtonElement>("[data-add-row]")?.focus();
                }}
              >
                <X aria-hidden="true" className="size-4" /> Remove
              </button>
            ) : null}
          </div>
        ))}
      </div>
      {hydrated && rows.length < props.max ? (
        <button
          type="button"
          data-add-row=""
          className={`${btnSecondary} mt-3`}
          onClick={() => {
            setRows([...rows, blank()]);
            setIds([...ids, Math.max(-1, ...ids) + 1]);
            setTimeout(() => list.current?.querySelector<HTMLElement>(":scope > div:last-child input")?.focus(), 0);
          }}
        >
          <Plus aria-hidden="true" className="size-4" /> {props.addLabel}
        </button>
      ) : null}
      <FieldError id={errorId} error={props.error} />
    </fieldset>
  );
}

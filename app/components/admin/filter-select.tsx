import type { ReactNode } from "react";
import { inputClass, labelClass } from "./styles";

/**
 * One choice of a list's filter form (a GET form): its label, then the
 * select with "all" first (the empty value) where the list can show
 * everything, then the options.
 */
export function FilterSelect({
  id,
  name = id,
  label,
  value,
  all,
  options,
}: {
  id: string;
  /** The query parameter; the id when not given. */
  name?: string;
  label: ReactNode;
  value: string | number;
  all?: ReactNode;
  options: readonly { value: string | number; label: ReactNode }[];
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={inputClass}>
        {all === undefined ? null : <option value="">{all}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

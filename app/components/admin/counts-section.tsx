import type { ReactNode } from "react";

/**
 * The "Counts" section at the head of a list page (subscribers, an event's
 * registrations): one tile a count; `children` follow the tiles (notes on
 * what is counted).
 */
export function CountsSection({
  counts,
  columns,
  children,
}: {
  counts: readonly { label: string; value: ReactNode }[];
  /** The tiles' columns from the small breakpoint on, e.g. "sm:grid-cols-4". */
  columns: string;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="counts-title" className="mb-8">
      <h2 id="counts-title" className="text-xl font-semibold">
        Counts
      </h2>
      <dl className={`mt-3 grid grid-cols-2 gap-3 ${columns}`}>
        {counts.map((c) => (
          <div key={c.label} className="rounded border border-line bg-white px-4 py-3">
            <dt className="text-sm text-muted">{c.label}</dt>
            <dd className="text-2xl font-semibold">{c.value}</dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  );
}

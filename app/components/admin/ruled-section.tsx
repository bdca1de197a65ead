import type { ReactNode } from "react";

/**
 * A section below a page's list, set off by a rule (importing, asking for
 * consent, sending certificates): its heading, named by `id`, then `children`.
 */
export function RuledSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-12 border-t border-line pt-8">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

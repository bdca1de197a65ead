import { pageWindow } from "~/lib/page-window";

/** Page buttons (real links) — only when there is more than one page (SPEC §9). */
export function Pagination({ page, pageCount, href }: { page: number; pageCount: number; href: (page: number) => string }) {
  if (pageCount <= 1) return null;
  const base = "inline-flex h-11 min-w-11 items-center justify-center border px-3 text-sm font-semibold";
  return (
    <nav aria-label="Pagination" className="mt-12">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 ? (
          <li>
            <a href={href(page - 1)} className={`${base} border-line bg-white text-accent hover:border-accent`} rel="prev">
              Previous
            </a>
          </li>
        ) : null}
        {pageWindow(page, pageCount).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={p}>
              <a
                href={href(p)}
                aria-current={p === page ? "page" : undefined}
                aria-label={`Page ${p}`}
                className={`${base} ${p === page ? "border-accent bg-accent text-white" : "border-line bg-white text-accent hover:border-accent"}`}
              >
                {p}
              </a>
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <a href={href(page + 1)} className={`${base} border-line bg-white text-accent hover:border-accent`} rel="next">
              Next
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

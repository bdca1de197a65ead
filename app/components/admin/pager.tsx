import { Link } from "react-router";
import { linkClass } from "./styles";

/**
 * The pages of a dashboard list (enquiries, redirects, subscribers): a link
 * back, "Page 2 of 5 (93)", a link on; nothing when the list fits one page.
 */
export function Pager({
  label,
  page,
  pages,
  total,
  pageLink,
  back,
  on,
}: {
  /** The navigation's name: "Pages of enquiries". */
  label: string;
  page: number;
  pages: number;
  total: number;
  pageLink: (page: number) => string;
  /** The words of the links: "Newer" and "Older", or "Previous" and "Next". */
  back: string;
  on: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="mt-6 flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={pageLink(page - 1)} className={linkClass}>
          {back}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-muted">
        Page {page} of {pages} ({total})
      </span>
      {page < pages ? (
        <Link to={pageLink(page + 1)} className={linkClass}>
          {on}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

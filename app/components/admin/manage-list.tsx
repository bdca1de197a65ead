/**
 * A dashboard list screen (Manage Team, Manage Articles): the add button,
 * search, the delete confirmation, and one row per item with its edit link
 * and delete button. Each route says what a row shows.
 *
 * The list filters as you type (as the original did): a pause of
 * FILTER_DELAY_MS in typing submits the search form (the URL keeps `?q=`,
 * replacing the history entry, so Back leaves the screen); the number of
 * rows shown is announced. Without JavaScript the Search button submits it.
 * A long list comes in pages (`paging`, real links keeping the search); the
 * page is kept through a delete.
 */
import { Pencil, Plus } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Link, useSubmit } from "react-router";
import { Pagination } from "~/components/public/pagination";
import { listHref } from "~/lib/pagination";
import { AdminPage } from "./admin-page";
import { ConfirmDelete, ConfirmPanel } from "./confirm-delete";
import { SearchForm } from "./search-form";
import { btnPrimary, btnSecondary } from "./styles";

export const FILTER_DELAY_MS = 250;

export type ManageListRow = { id: number; name: string; editTo: string; details: ReactNode; picture?: ReactNode };

export function ManageList(props: {
  title: string;
  /** This screen's path, for "Cancel" in the delete confirmation. */
  path: string;
  add: { to: string; label: string };
  searchLabel: string;
  listLabel: string;
  /** Shown when nothing matches the search, and when there is nothing at all. */
  empty: { noMatch: string; none: string };
  q: string;
  confirming: { id: number; name: string } | null;
  rows: ManageListRow[];
  /** This page of the list, when it comes in pages. */
  paging?: { page: number; pageCount: number; total: number };
}) {
  const { q, confirming, rows, paging } = props;
  const page = paging?.page ?? 1;
  const listUrl = (p: number) => listHref(props.path, q, p);
  const here = listUrl(page);
  const shown = rows.length === 1 ? "1 shown" : `${rows.length} shown`;
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  function filterAsYouType(event: React.ChangeEvent<HTMLInputElement>) {
    const form = event.currentTarget.form;
    clearTimeout(timer.current);
    if (!form) return;
    timer.current = setTimeout(() => void submit(form, { replace: true, preventScrollReset: true }), FILTER_DELAY_MS);
  }
  return (
    <AdminPage
      title={props.title}
      back={{ to: "/dashboard", label: "Dashboard" }}
      actions={
        <Link to={props.add.to} className={btnPrimary}>
          <Plus aria-hidden="true" className="size-4" /> {props.add.label}
        </Link>
      }
    >
      <SearchForm label={props.searchLabel} q={q} describedBy="search-count" onChange={filterAsYouType} />
      <p id="search-count" role="status" aria-live="polite" className="sr-only">
        {paging && paging.pageCount > 1 ? `${shown} of ${paging.total}, page ${page} of ${paging.pageCount}` : shown}
      </p>
      {confirming ? <ConfirmPanel id={confirming.id} name={confirming.name} q={q} page={page} cancelTo={here} /> : null}
      {rows.length === 0 ? (
        <p className="py-8 text-center text-muted">{q ? props.empty.noMatch : props.empty.none}</p>
      ) : (
        <ul className="divide-y divide-line rounded border border-line bg-white" aria-label={props.listLabel}>
          {rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center gap-4 px-4 py-3">
              {row.picture}
              {/* At least 10rem for the name: narrower, the buttons go to a line of their own rather than over it. */}
              <div className="min-w-0 flex-1 basis-40">
                <Link to={row.editTo} className="font-semibold text-ink hover:text-accent hover:underline">
                  {row.name}
                </Link>
                <p className="text-sm text-muted">{row.details}</p>
              </div>
              <div className="flex items-center gap-2">
                <Link to={row.editTo} className={btnSecondary} aria-label={`Edit ${row.name}`}>
                  <Pencil aria-hidden="true" className="size-4" /> Edit
                </Link>
                <ConfirmDelete id={row.id} name={row.name} q={q} page={page} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {paging ? <Pagination page={page} pageCount={paging.pageCount} href={listUrl} /> : null}
    </AdminPage>
  );
}

/**
 * /dashboard/enquiries: enquiries sent through the public form, newest
 * first, filtered by state (new, in progress, closed), 20 a page. Owners and
 * admins only (permission "enquiries").
 */
import { Form, Link } from "react-router";
import type { Route } from "./+types/enquiries";
import { countEnquiriesByState, ENQUIRIES_PAGE_SIZE, listEnquiries } from "~/.server/db/enquiries";
import { getEnv } from "~/.server/env";
import { AdminPage } from "~/components/admin/admin-page";
import { FilterSelect } from "~/components/admin/filter-select";
import { Pager } from "~/components/admin/pager";
import { btnSecondary, linkClass } from "~/components/admin/styles";
import { ENQUIRY_AREA_LABELS, ENQUIRY_STATE_LABELS, ENQUIRY_STATES, type EnquiryArea, type EnquiryState } from "~/lib/forms/enquiry";
import { staffDateTime } from "~/lib/dates";
import { pageCount, parsePage } from "~/lib/pagination";
import { EnquiryStateBadge } from "~/components/admin/enquiry-state";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "enquiries",
  nav: { label: "Enquiries", text: "Messages sent through the website's enquiry form.", order: 60, icon: "enquiries" },
} satisfies RouteHandle;

export function meta() {
  return [{ title: "Enquiries | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const stateParam = url.searchParams.get("state") ?? "";
  const state = (ENQUIRY_STATES as readonly string[]).includes(stateParam) ? (stateParam as EnquiryState) : undefined;
  const requested = parsePage(url.searchParams.get("page"));
  const counts = await countEnquiriesByState();
  const total = state ? (counts[state] ?? 0) : Object.values(counts).reduce((a, b) => a + b, 0);
  const pages = pageCount(total, ENQUIRIES_PAGE_SIZE);
  const page = Math.min(requested, pages);
  const { rows } = await listEnquiries({ state, page });
  return {
    state: state ?? "",
    page,
    pages,
    total,
    counts,
    retentionDays: getEnv().ENQUIRY_RETENTION_DAYS,
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      area: ENQUIRY_AREA_LABELS[r.practice_area as EnquiryArea] ?? r.practice_area,
      state: r.state as EnquiryState,
      received: staffDateTime(r.created_at),
      handledBy: r.handled_by,
    })),
  };
}

export default function Enquiries({ loaderData }: Route.ComponentProps) {
  const { state, page, pages, rows, counts, total, retentionDays } = loaderData;
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const pageLink = (p: number) =>
    `/dashboard/enquiries?${new URLSearchParams({ ...(state ? { state } : {}), ...(p > 1 ? { page: String(p) } : {}) })}`;
  return (
    <AdminPage title="Enquiries" back={{ to: "/dashboard", label: "Dashboard" }}>
      <p className="mb-6 text-muted">
        Sent through the enquiry form of the website. Each is deleted automatically {retentionDays} days after it arrived; delete one sooner
        when the sender asks.
      </p>
      <Form method="get" aria-label="Which enquiries to show" className="mb-6 flex flex-wrap items-end gap-2">
        <FilterSelect
          id="state"
          label="Show"
          value={state}
          all={<>All ({all})</>}
          options={ENQUIRY_STATES.map((s) => ({
            value: s,
            label: (
              <>
                {ENQUIRY_STATE_LABELS[s]} ({counts[s] ?? 0})
              </>
            ),
          }))}
        />
        <button type="submit" className={btnSecondary}>
          Show
        </button>
        <a href={`/dashboard/enquiries/export${state ? `?state=${state}` : ""}`} className={`${linkClass} ml-auto`} download>
          Export {state ? "these enquiries" : "all enquiries"} (CSV)
        </a>
      </Form>
      {rows.length === 0 ? (
        <p className="py-8 text-center text-muted">
          {state ? `No enquiries are ${ENQUIRY_STATE_LABELS[state as EnquiryState].toLowerCase()}.` : "No enquiries yet."}
        </p>
      ) : (
        <ul className="divide-y divide-line rounded border border-line bg-white" aria-label="Enquiries">
          {rows.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
              <div className="min-w-0 flex-1 basis-40">
                <Link to={`/dashboard/enquiries/${r.id}`} className="font-semibold text-ink hover:text-accent hover:underline">
                  {r.name}
                </Link>
                <p className="text-sm break-all text-muted">
                  {r.area} · {r.email}
                </p>
              </div>
              <div className="text-right text-sm text-muted">
                <p>Received {r.received}</p>
                {r.handledBy ? <p>Handled by {r.handledBy}</p> : null}
              </div>
              <EnquiryStateBadge state={r.state} />
            </li>
          ))}
        </ul>
      )}
      <Pager label="Pages of enquiries" page={page} pages={pages} total={total} pageLink={pageLink} back="Newer" on="Older" />
    </AdminPage>
  );
}

/**
 * /dashboard/activity (owners and admins): the audit trail, newest first,
 * filtered by person, kind of item, action and date range (a GET form, so it
 * works without JavaScript and can be bookmarked), 50 entries a page, paged
 * in the database; each entry links to its item while it exists.
 */
import { Filter } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/activity";
import { activityFiltersOf, activityPeople, ACTIVITY_ACTIONS, ACTIVITY_ITEMS, listActivity } from "~/.server/db/activity";
import { AdminPage } from "~/components/admin/admin-page";
import { FilterSelect } from "~/components/admin/filter-select";
import { Pagination } from "~/components/public/pagination";
import { parsePage } from "~/lib/pagination";
import { btnPrimary, btnSecondary, inputClass, labelClass, linkClass } from "~/components/admin/styles";
import { ACTION_LABELS, formatWhen, ITEM_LABELS } from "~/lib/activity";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "activity",
  nav: { label: "Activity", text: "Who changed what, when and from where.", order: 120, icon: "activity" },
} satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const people = await activityPeople();
  const { filters, values } = activityFiltersOf(url.searchParams, people);
  const result = await listActivity(filters, parsePage(url.searchParams.get("page")));
  return {
    people,
    actions: ACTIVITY_ACTIONS.map((a) => ({ value: a, label: ACTION_LABELS[a] ?? a })),
    items: ACTIVITY_ITEMS.map((i) => ({ value: i, label: ITEM_LABELS[i] ?? i })),
    values,
    ...result,
    entries: result.entries.map((e) => ({ ...e, at: e.at.toISOString(), when: formatWhen(e.at) })),
  };
}

function changeText(changes: Record<string, unknown> | null): string[] {
  if (!changes) return [];
  return Object.entries(changes).map(([field, raw]) => {
    const c = (raw ?? {}) as { before?: unknown; after?: unknown; diff?: string; hidden?: boolean };
    const show = (v: unknown) =>
      v === undefined ? "" : typeof v === "string" ? `“${v.length > 80 ? `${v.slice(0, 80)}…` : v}”` : JSON.stringify(v);
    if (c.hidden) return `${field}: changed (not recorded)`;
    if (c.diff !== undefined) return `${field}: ${c.diff}`;
    if ("before" in c && "after" in c) return `${field}: ${show(c.before)} → ${show(c.after)}`;
    if ("after" in c) return `${field}: ${show(c.after)}`;
    return `${field}: was ${show(c.before)}`;
  });
}

export default function Activity({ loaderData }: Route.ComponentProps) {
  const { values, entries, people, page, pageCount, total } = loaderData;
  const query = (p: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v) params.set(k, v);
    if (p > 1) params.set("page", String(p));
    const s = params.toString();
    return `/dashboard/activity${s ? `?${s}` : ""}`;
  };
  return (
    <AdminPage title="Activity" back={{ to: "/dashboard", label: "Dashboard" }}>
      <Form
        method="get"
        className="mb-6 grid gap-4 rounded border border-line bg-white p-5 sm:grid-cols-2 lg:grid-cols-3"
        aria-label="Filter the activity"
      >
        <FilterSelect
          id="filter-person"
          name="person"
          label="Person"
          value={values.person}
          all="Everyone"
          options={[
            ...people.map((p) => ({ value: p.id, label: p.label })),
            { value: "system", label: "No account (system, unknown names)" },
          ]}
        />
        <FilterSelect id="filter-item" name="item" label="Kind of item" value={values.item} all="All kinds" options={loaderData.items} />
        <FilterSelect
          id="filter-action"
          name="action"
          label="Action"
          value={values.action}
          all="All actions"
          options={loaderData.actions}
        />
        <div>
          <label htmlFor="filter-from" className={labelClass}>
            From
          </label>
          <input id="filter-from" type="date" name="from" defaultValue={values.from} className={inputClass} />
        </div>
        <div>
          <label htmlFor="filter-to" className={labelClass}>
            To
          </label>
          <input id="filter-to" type="date" name="to" defaultValue={values.to} className={inputClass} />
        </div>
        <div className="flex items-end gap-2">
          <button type="submit" className={btnPrimary}>
            <Filter aria-hidden="true" className="size-4" /> Show
          </button>
          <Link to="/dashboard/activity" className={btnSecondary}>
            Clear
          </Link>
        </div>
      </Form>
      <p className="mb-3">
        <a href={query(1).replace("/dashboard/activity", "/dashboard/activity/export")} className={linkClass} download>
          Export these entries (CSV)
        </a>
      </p>
      <p className="mb-3 text-muted" aria-live="polite">
        {total === 0
          ? "No activity matches."
          : `${total} ${total === 1 ? "entry" : "entries"}, newest first${pageCount > 1 ? ` (page ${page} of ${pageCount})` : ""}.`}
      </p>
      {entries.length ? (
        <ol className="divide-y divide-line rounded border border-line bg-white" aria-label="Activity entries">
          {entries.map((e) => {
            const details = changeText(e.changes);
            return (
              <li key={e.id} className="px-4 py-3" data-testid="activity-entry">
                <p>
                  <time dateTime={e.at} className="text-sm text-muted">
                    {e.when}
                  </time>
                </p>
                <p className="mt-0.5">
                  <span className="font-semibold">{e.actorName ? `${e.actorName} (${e.actorLabel})` : e.actorLabel}</span>{" "}
                  <span>{(ACTION_LABELS[e.action] ?? e.action).toLowerCase()}</span>{" "}
                  <span className="text-muted">{ITEM_LABELS[e.itemType] ?? e.itemType}:</span>{" "}
                  {e.href ? (
                    <Link to={e.href} className={linkClass}>
                      {e.itemLabel || "(untitled)"}
                    </Link>
                  ) : (
                    <span>{e.itemLabel || "(untitled)"}</span>
                  )}
                  {e.ip ? <span className="text-sm text-muted"> · from {e.ip}</span> : null}
                </p>
                {details.length ? (
                  <ul className="mt-1 list-disc pl-6 text-sm text-muted">
                    {details.map((d, i) => (
                      <li key={i} className="break-words">
                        {d}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      <Pagination page={page} pageCount={pageCount} href={query} />
    </AdminPage>
  );
}

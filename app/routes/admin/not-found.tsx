/**
 * /dashboard/redirects/not-found (owners, admins, editors; issue 46): the
 * addresses that answered 404 in the last 7, 30 or 90 days, most frequent
 * first, with their count, days seen, last time and top referrer. Each row
 * has a new address already filled in (the site search for the words of the
 * old address): one click on "Redirect" makes the redirect; "Ignore" takes
 * the path off the list. Crawlers' probes are one row; paths past the
 * day's limit are counted together (app/.server/redirects/not-found.ts).
 */
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/not-found";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { ignoreNotFound, listNotFound } from "~/.server/db/not-found-log";
import { getEnv } from "~/.server/env";
import { OTHER_PATH, PROBE_PATH } from "~/.server/redirects/not-found";
import { describeSource, saveRule } from "~/.server/redirects/rules";
import { AdminPage } from "~/components/admin/admin-page";
import { FilterSelect } from "~/components/admin/filter-select";
import { btnPrimary, btnSecondary, inputClass } from "~/components/admin/styles";
import { staffDateTime } from "~/lib/dates";
import { formText } from "~/lib/forms/form-data";
import { MSG, type Status } from "~/lib/forms/messages";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "redirects" } satisfies RouteHandle;

const PERIODS = [7, 30, 90] as const;

export function meta() {
  return [{ title: "Not found (404) | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

/** A first guess for where an old address should go: the site search for its words. */
function suggestion(path: string): string {
  const words = decodeURIComponent(path.split("/").filter(Boolean).at(-1) ?? "")
    .replace(/\.[a-z0-9]+$/i, "")
    .replace(/[-_+]+/g, " ")
    .trim();
  return words ? `/search?q=${encodeURIComponent(words)}` : "/";
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const asked = Number(url.searchParams.get("days"));
  const days = (PERIODS as readonly number[]).includes(asked) ? asked : 30;
  const rows = await listNotFound({ days });
  return {
    days,
    perDay: getEnv().NOT_FOUND_PATHS_PER_DAY,
    rows: rows.map((r) => ({
      path: r.path,
      kind: r.path === PROBE_PATH ? "probe" : r.path === OTHER_PATH ? "other" : "path",
      count: r.count,
      days: r.days,
      last: staffDateTime(r.last_at),
      referrer: r.referrer,
      suggestion: suggestion(r.path),
    })),
  };
}

type ActionData = { status: Status; path?: string; error?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.updateError);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const path = formText(form, "path");
  const back = async (text: string) =>
    redirect(`/dashboard/redirects/not-found${new URL(request.url).search}`, { headers: await flashHeaders({ tone: "success", text }) });
  if (!path.startsWith("/")) return data<ActionData>({ status: { tone: "error", text: MSG.updateError } }, { status: 400 });
  if (formText(form, "intent") === "ignore") {
    await ignoreNotFound(path, staffOf(context).email);
    return back(`${path} is ignored: it no longer appears here.`);
  }
  const result = await saveRule({ match: "exact", source: path, target: formText(form, "target"), status: 301 }, actor, {
    origin: "not-found",
  });
  if (!result.ok) {
    const error = Object.values(result.errors).join(" ");
    return data<ActionData>(
      { status: { tone: "error", text: `No redirect was made for ${path}: ${error}` }, path, error },
      { status: 400 },
    );
  }
  return back([`Redirect made: ${describeSource(result.rule)} → ${result.rule.target}.`, ...result.notes].join(" "));
}

export default function NotFoundLog({ loaderData, actionData }: Route.ComponentProps) {
  const { days, rows, perDay } = loaderData;
  const failed = actionData as ActionData | undefined;
  return (
    <AdminPage title="Not found (404)" back={{ to: "/dashboard/redirects", label: "Redirects" }}>
      <p className="mb-6 text-muted">
        Addresses visitors asked for that this site does not have, counted per day (at most {perDay} a day; the rest under “(other paths)”).
        Make a redirect with one click, or ignore an address. Addresses that hold a secret link are never kept.
      </p>
      <Form method="get" aria-label="Which days to show" className="mb-6 flex flex-wrap items-end gap-2">
        <FilterSelect id="days" label="Period" value={days} options={PERIODS.map((p) => ({ value: p, label: <>Last {p} days</> }))} />
        <button type="submit" className={btnSecondary}>
          Show
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="py-8 text-center text-muted">No address answered 404 in this period.</p>
      ) : (
        <ul className="divide-y divide-line rounded border border-line bg-white" aria-label="Addresses not found">
          {rows.map((r, i) => (
            <li key={r.path} className="px-4 py-3">
              <p className="font-mono text-sm font-semibold break-all text-ink">{r.path}</p>
              <p className="text-sm text-muted">
                {r.count} time{r.count === 1 ? "" : "s"} on {r.days} day{r.days === 1 ? "" : "s"} · last {r.last}
                {r.referrer ? ` · most from ${r.referrer}` : ""}
                {r.kind === "probe" ? " · /wp-admin, .php, .env and other addresses only vulnerability scanners ask for" : ""}
              </p>
              {r.kind === "path" ? (
                <div className="mt-2 flex flex-wrap items-end gap-2">
                  <Form method="post" className="flex min-w-0 flex-1 flex-wrap items-end gap-2" aria-label={`Redirect ${r.path}`}>
                    <input type="hidden" name="intent" value="redirect" />
                    <input type="hidden" name="path" value={r.path} />
                    <div className="min-w-0 flex-1 basis-48">
                      <label htmlFor={`target-${i}`} className="block text-sm font-semibold text-ink">
                        New address for {r.path}
                      </label>
                      <input
                        id={`target-${i}`}
                        name="target"
                        defaultValue={r.suggestion}
                        className={inputClass}
                        aria-invalid={failed?.path === r.path ? true : undefined}
                        aria-describedby={failed?.path === r.path ? `target-${i}-error` : undefined}
                      />
                      {failed?.path === r.path ? (
                        <p id={`target-${i}-error`} className="mt-1 text-sm font-semibold text-error">
                          {failed.error}
                        </p>
                      ) : null}
                    </div>
                    <button type="submit" className={btnPrimary}>
                      Redirect
                    </button>
                  </Form>
                  <Form method="post" aria-label={`Ignore ${r.path}`}>
                    <input type="hidden" name="intent" value="ignore" />
                    <input type="hidden" name="path" value={r.path} />
                    <button type="submit" className={btnSecondary}>
                      Ignore
                    </button>
                  </Form>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-6">
        <Link to="/dashboard/redirects" className="font-semibold text-accent underline underline-offset-2">
          All redirects
        </Link>
      </p>
    </AdminPage>
  );
}

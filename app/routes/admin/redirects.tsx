/**
 * /dashboard/redirects (owners, admins, editors; issue 46): every redirect
 * with its hits and last hit, newest first, searched and filtered by where
 * it came from; a form to add one (exact path, with an optional query, or a
 * regular expression; 301, 302, 307, 308 or 410); selected rules disabled,
 * enabled or deleted (after "Are you sure you want to delete this?"); CSV
 * export and import. A loop is refused and a chain made one hop: the status
 * message says which (app/.server/redirects/rules.ts).
 */
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { listSearch } from "~/lib/list-search";
import type { Route } from "./+types/redirects";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal, MAX_TEXT_FORM_BYTES, parseId, readForm, uploadedFile } from "~/.server/http/form-post";
import { countRedirectsByOrigin, listRedirects } from "~/.server/db/redirects";
import { deleteRules, describeSource, enableRules, importCsvRules, saveRule, type RuleErrors } from "~/.server/redirects/rules";
import { AdminPage } from "~/components/admin/admin-page";
import { FilterSelect } from "~/components/admin/filter-select";
import { bindFields, SelectField, TextField } from "~/components/admin/fields";
import { Pager } from "~/components/admin/pager";
import { SearchForm } from "~/components/admin/search-form";
import { btnDanger, btnPrimary, btnSecondary, inputClass, labelClass, linkClass } from "~/components/admin/styles";
import { parseCsv } from "~/lib/csv";
import { staffDateTime } from "~/lib/dates";
import { formText } from "~/lib/forms/form-data";
import { MSG, type Status } from "~/lib/forms/messages";
import { parsePage } from "~/lib/pagination";
import { ORIGIN_LABELS, REDIRECT_STATUSES, STATUS_LABELS, type RedirectStatus } from "~/lib/redirects";
import type { RouteHandle } from "~/lib/route-handle";

const MATCH_OPTIONS = [
  { value: "exact", label: "Exact address" },
  { value: "regex", label: "Regular expression" },
];
const STATUS_OPTIONS = REDIRECT_STATUSES.map((s) => ({ value: String(s), label: STATUS_LABELS[s] }));

export const handle = {
  permission: "redirects",
  nav: {
    label: "Redirects",
    text: "Old addresses that send visitors to new ones, and the addresses that were not found (404).",
    order: 90,
    icon: "redirects",
  },
} satisfies RouteHandle;

export function meta() {
  return [{ title: "Redirects | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = listSearch(url.searchParams.get("q"));
  const origin = url.searchParams.get("origin") ?? "";
  const page = parsePage(url.searchParams.get("page"));
  const [list, counts] = await Promise.all([
    listRedirects({ search: q, origin: ORIGIN_LABELS[origin] ? origin : "", page }),
    countRedirectsByOrigin(),
  ]);
  return {
    q,
    origin: ORIGIN_LABELS[origin] ? origin : "",
    page: list.page,
    pages: list.pages,
    total: list.total,
    counts,
    rows: list.rows.map((r) => ({
      id: r.id,
      source: describeSource(r),
      target: r.status === 410 ? "" : r.target,
      status: r.status,
      enabled: r.enabled,
      origin: ORIGIN_LABELS[r.origin] ?? r.origin,
      hits: r.hits,
      lastHit: r.last_hit_at ? staffDateTime(r.last_hit_at) : "",
      note: r.note,
    })),
  };
}

type ActionData = { status?: Status; errors?: RuleErrors; values?: Record<string, string>; confirmDelete?: number[] };

const ids = (form: FormData) =>
  form
    .getAll("ids")
    .map(parseId)
    .filter((n) => n !== null)
    .slice(0, 1000);

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, MSG.updateError);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request, MAX_TEXT_FORM_BYTES * 4);
  if (isRefusal(form)) return form;
  const intent = formText(form, "intent");
  const back = async (tone: Status["tone"], text: string) =>
    redirect(`/dashboard/redirects${new URL(request.url).search}`, { headers: await flashHeaders({ tone, text }) });
  if (intent === "create") {
    const values = {
      match: formText(form, "match"),
      source: formText(form, "source"),
      target: formText(form, "target"),
      status: formText(form, "status"),
      note: formText(form, "note"),
    };
    const status = Number(values.status) as RedirectStatus;
    const result = await saveRule(
      { match: values.match === "regex" ? "regex" : "exact", source: values.source, target: values.target, status, note: values.note },
      actor,
    );
    if (!result.ok)
      return data<ActionData>(
        { status: { tone: "error", text: "The redirect was not added. Check the fields marked below." }, errors: result.errors, values },
        { status: 400 },
      );
    return back(
      "success",
      [`Redirect added: ${describeSource(result.rule)} → ${result.rule.target || "410 Gone"}.`, ...result.notes].join(" "),
    );
  }
  if (intent === "enable" || intent === "disable") {
    const chosen = ids(form);
    if (!chosen.length) return back("error", "Select at least one redirect first.");
    const n = await enableRules(chosen, intent === "enable", actor);
    return back("success", `${n} redirect${n === 1 ? "" : "s"} ${intent === "enable" ? "enabled" : "disabled"}.`);
  }
  if (intent === "delete-ask") {
    const chosen = ids(form);
    if (!chosen.length) return back("error", "Select at least one redirect first.");
    return data<ActionData>({ confirmDelete: chosen });
  }
  if (intent === "delete") {
    const n = await deleteRules(ids(form), actor);
    return back("success", `${n} redirect${n === 1 ? "" : "s"} deleted.`);
  }
  if (intent === "import") {
    const file = uploadedFile(form, "file");
    if (!file) return back("error", "Choose a CSV file to import: one redirect a line (old address, new address, status).");
    const rows = parseCsv(await file.text()).slice(0, 20_000);
    const { added, refused } = await importCsvRules(rows, actor);
    const more = refused.length > 10 ? ` …and ${refused.length - 10} more.` : "";
    return back(
      refused.length ? "error" : "success",
      `${added} redirect${added === 1 ? "" : "s"} imported.${refused.length ? ` ${refused.length} refused: ${refused.slice(0, 10).join(" ")}${more}` : ""}`,
    );
  }
  return back("error", MSG.updateError);
}

/** The "Add a redirect" form; after a refusal, what was typed with the fields' messages. */
function AddRedirect({ errors, values }: { errors: RuleErrors; values: Record<string, string> }) {
  const field = bindFields(values, errors);
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="add-heading" className="mb-8 rounded border border-line bg-white p-4">
      <h2 id="add-heading" className="mb-4 text-xl font-semibold">
        Add a redirect
      </h2>
      <Form method="post" className="grid gap-4 md:grid-cols-2" aria-labelledby="add-heading">
        <input type="hidden" name="intent" value="create" />
        <SelectField
          name="match"
          label="Match"
          defaultValue={values.match ?? "exact"}
          options={MATCH_OPTIONS}
          hint="An exact address matches as written (a query such as ?p=12 must also be in the request); a regular expression may use $1, $2… in the new address."
        />
        <SelectField {...field("status")} label="Answer" defaultValue={values.status ?? "301"} options={STATUS_OPTIONS} />
        <TextField
          {...field("source")}
          label="Old address"
          required
          hint="A path such as /2021/03/old-post/ or /?p=12, or a pattern such as ^/blog/(.*)$"
        />
        <TextField
          {...field("target")}
          label="New address"
          hint="A path on this site such as /insights, or a full address on another site (https://…). Empty for 410 Gone."
        />
        <TextField {...field("note")} label="Note" maxLength={500} className="md:col-span-2" />
        <div className="md:col-span-2">
          <button type="submit" className={btnPrimary} disabled={busy}>
            Add redirect
          </button>
        </div>
      </Form>
    </section>
  );
}

export default function Redirects({ loaderData, actionData }: Route.ComponentProps) {
  const { q, origin, page, pages, total, counts, rows } = loaderData;
  const result = actionData;
  const confirmDelete = result && "confirmDelete" in result ? result.confirmDelete : undefined;
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const pageLink = (p: number) =>
    `/dashboard/redirects?${new URLSearchParams({ ...(q ? { q } : {}), ...(origin ? { origin } : {}), ...(p > 1 ? { page: String(p) } : {}) })}`;
  return (
    <AdminPage
      title="Redirects"
      back={{ to: "/dashboard", label: "Dashboard" }}
      actions={
        <Link to="/dashboard/redirects/not-found" className={btnSecondary}>
          Not found (404) log
        </Link>
      }
    >
      <p className="mb-6 text-muted">
        A visitor or search engine that asks for an old address is sent to its new one before any page is shown. A page renamed here adds
        its own redirect.
      </p>

      <AddRedirect errors={result?.errors ?? {}} values={result?.values ?? {}} />

      <SearchForm name="Search redirects" label="Search" q={q}>
        <FilterSelect
          id="origin"
          label="Made by"
          value={origin}
          all={<>All ({all})</>}
          options={Object.entries(ORIGIN_LABELS).map(([key, label]) => ({
            value: key,
            label: (
              <>
                {label} ({counts[key] ?? 0})
              </>
            ),
          }))}
        />
      </SearchForm>

      {confirmDelete ? (
        <div role="alertdialog" aria-labelledby="confirm-text" className="mb-4 rounded border-2 border-error bg-white p-4">
          <Form method="post" aria-labelledby="confirm-text">
            <input type="hidden" name="intent" value="delete" />
            {confirmDelete.map((id) => (
              <input key={id} type="hidden" name="ids" value={id} />
            ))}
            <p id="confirm-text" className="mb-3 font-semibold">
              Are you sure you want to delete this? ({confirmDelete.length} redirect{confirmDelete.length === 1 ? "" : "s"})
            </p>
            <div className="flex flex-wrap gap-2">
              <button type="submit" className={btnDanger}>
                Delete
              </button>
              <Link to={pageLink(page)} className={btnSecondary}>
                Cancel
              </Link>
            </div>
          </Form>
        </div>
      ) : null}

      {rows.length === 0 ? (
        <p className="py-8 text-center text-muted">{q || origin ? "No redirect matches this search." : "No redirects yet."}</p>
      ) : (
        <Form method="post" aria-label="Redirects">
          <div className="mb-2 flex flex-wrap gap-2">
            <button type="submit" name="intent" value="disable" className={btnSecondary}>
              Disable selected
            </button>
            <button type="submit" name="intent" value="enable" className={btnSecondary}>
              Enable selected
            </button>
            <button type="submit" name="intent" value="delete-ask" className={btnDanger}>
              Delete selected
            </button>
          </div>
          <fieldset>
            <legend className="sr-only">Select redirects ({total})</legend>
            <ul className="divide-y divide-line rounded border border-line bg-white" aria-label={`Redirects, ${total}`}>
              {rows.map((r) => (
                <li key={r.id} className="flex items-start gap-3 px-4 py-3">
                  <input type="checkbox" name="ids" value={r.id} id={`pick-${r.id}`} className="mt-1.5 size-5 shrink-0" />
                  <div className="min-w-0 flex-1">
                    <label htmlFor={`pick-${r.id}`} className="block font-mono text-sm font-semibold break-all text-ink">
                      {r.source}
                    </label>
                    <p className="text-sm break-all text-ink">
                      <span aria-hidden="true">→ </span>
                      <span className="sr-only">goes to </span>
                      {r.status === 410 ? "410 Gone" : `${r.target} (${r.status})`}
                    </p>
                    <p className="text-sm text-muted">
                      {r.origin} · {r.hits} hit{r.hits === 1 ? "" : "s"}
                      {r.lastHit ? ` · last ${r.lastHit}` : ""}
                      {r.enabled ? "" : " · disabled"}
                      {r.note ? ` · ${r.note}` : ""}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          </fieldset>
        </Form>
      )}
      <Pager label="Pages of redirects" page={page} pages={pages} total={total} pageLink={pageLink} back="Newer" on="Older" />

      <section aria-labelledby="csv-heading" className="mt-10 rounded border border-line bg-white p-4">
        <h2 id="csv-heading" className="mb-2 text-xl font-semibold">
          CSV
        </h2>
        <p className="mb-4">
          <a href="/dashboard/redirects/export" className={linkClass} download>
            Download all redirects as CSV
          </a>
        </p>
        <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2" aria-labelledby="csv-heading">
          <input type="hidden" name="intent" value="import" />
          <div className="min-w-0 flex-1 basis-64">
            <label htmlFor="csv-file" className={labelClass}>
              Import a CSV file
            </label>
            <input id="csv-file" name="file" type="file" accept=".csv,text/csv" className={inputClass} aria-describedby="csv-hint" />
            <p id="csv-hint" className="mt-1 text-sm text-muted">
              One redirect a line: old address, new address, status (301 if empty), and regex in a fourth column for a regular expression.
              New addresses must be on this site.
            </p>
          </div>
          <button type="submit" className={btnSecondary}>
            Import
          </button>
        </Form>
      </section>
    </AdminPage>
  );
}

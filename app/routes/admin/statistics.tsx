/**
 * /dashboard/statistics (owners, admins and editors): the visit statistics
 * the site keeps itself (decision 0023). A period (today, 7, 30 or 90 days,
 * or custom dates, in Toronto time; a GET form, so it works without
 * JavaScript and can be bookmarked), each figure compared with the period
 * just before; a line chart of visitors and page views with the same figures
 * in a table beside it; top pages, lawyer profiles, insights, entry pages,
 * referrers, campaigns, site searches, outbound actions, conversions,
 * devices and browsers; the CSV export; and "don't count this browser".
 */
import { Download, Filter } from "lucide-react";
import { useMemo } from "react";
import { Form, Link, redirect } from "react-router";
import { ScrollRegion } from "~/components/scroll-region";
import uplotCss from "uplot/dist/uPlot.min.css?url";
import type { Route } from "./+types/statistics";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal, readForm } from "~/.server/http/form-post";
import { statsReport, type StatsList, type StatsListResult } from "~/.server/db/stats-report";
import { browserOptedOut, statsOptOutCookie } from "~/.server/statistics/stats-ingest";
import { AdminPage } from "~/components/admin/admin-page";
import { useFocusFirstInvalid } from "~/components/admin/fields";
import { StatsChart, type ChartSeries } from "~/components/admin/stats-chart";
import { btnPrimary, btnSecondary, inputClass, labelClass, linkClass } from "~/components/admin/styles";
import { firmDateTimeText } from "~/lib/firm-time";
import { MSG } from "~/lib/forms/messages";
import type { RouteHandle } from "~/lib/route-handle";
import {
  changeText,
  dayLabel,
  dayTick,
  durationText,
  hourLabel,
  OUTBOUND_LABELS,
  outboundKind,
  parseRange,
  RANGE_LABELS,
  RANGE_PRESETS,
  referrerLabel,
  type RangePreset,
} from "~/lib/stats";

export const handle = {
  permission: "statistics",
  nav: {
    label: "Statistics",
    text: "Visits, pages read, referrers, searches and enquiries: counted by the site itself, without cookies.",
    order: 80,
    icon: "statistics",
  },
} satisfies RouteHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: uplotCss }];

export const meta: Route.MetaFunction = () => [{ title: "Statistics" }];

export const OPT_OUT_MESSAGES = {
  off: "This browser is no longer counted in the statistics.",
  on: "This browser is counted in the statistics again.",
  /** The dashboard's general failure (the database did not answer): nothing was changed. */
  error: MSG.updateError,
};

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = parseRange(url.searchParams);
  const report = await statsReport(parsed.range);
  return {
    range: parsed.range,
    error: parsed.ok ? null : parsed.message,
    // What was typed, kept in the form when it was wrong.
    typed: { from: (url.searchParams.get("from") ?? "").slice(0, 10), to: (url.searchParams.get("to") ?? "").slice(0, 10) },
    report,
    rolledAtText: report.rolledAt ? firmDateTimeText(report.rolledAt) : null,
    optedOut: browserOptedOut(request),
    query: url.search,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, OPT_OUT_MESSAGES.error);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const optOut = form.get("count") === "off";
  const headers = await flashHeaders({ tone: "success", text: optOut ? OPT_OUT_MESSAGES.off : OPT_OUT_MESSAGES.on });
  headers.append("Set-Cookie", statsOptOutCookie(optOut));
  const back = new URL(request.url).search;
  return redirect(`/dashboard/statistics${back}`, { headers });
}

const number = (n: number) => n.toLocaleString("en-CA");

function Change({ current, previous }: { current: number; previous: number }) {
  return <span className="text-sm text-muted">{changeText(current, previous)}</span>;
}

type Column = { title: string; value: (row: StatsListResult["rows"][number]) => string; numeric?: boolean };

/** One list as a table: its rows in the period, with the previous period's figure. */
function ListTable({
  id,
  title,
  list,
  first,
  columns,
  empty,
  note,
}: {
  id: string;
  title: string;
  list: StatsListResult;
  first: string;
  columns: Column[];
  empty: string;
  note?: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded border border-line bg-white p-4">
      <h2 id={`${id}-title`} className="font-serif text-xl font-semibold text-ink">
        {title}
      </h2>
      <p className="mt-1 text-sm text-muted">
        {number(list.total)} in this period, {number(list.previousTotal)} in the previous one ({changeText(list.total, list.previousTotal)}
        ).
        {note ? ` ${note}` : ""}
      </p>
      {list.rows.length ? (
        <ScrollRegion className="mt-3 overflow-x-auto" labelledBy={`${id}-title`}>
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-line">
                <th scope="col" className="py-2 pr-3 font-semibold">
                  {first}
                </th>
                {columns.map((c) => (
                  <th key={c.title} scope="col" className={`py-2 pl-3 font-semibold ${c.numeric === false ? "" : "text-right"}`}>
                    {c.title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.rows.map((row) => (
                <tr key={row.key} className="border-b border-line last:border-0">
                  <th scope="row" className="max-w-[22rem] py-2 pr-3 font-normal break-words">
                    {row.label}
                    {row.label !== row.key && row.key.startsWith("/") ? <span className="block text-xs text-muted">{row.key}</span> : null}
                  </th>
                  {columns.map((c) => (
                    <td key={c.title} className={`py-2 pl-3 ${c.numeric === false ? "" : "text-right tabular-nums"}`}>
                      {c.value(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <p className="mt-3 text-muted">{empty}</p>
      )}
    </section>
  );
}

/** A duration, or a dash when nothing was timed. */
const timeText = (ms: number | null) => (ms === null ? "—" : durationText(ms));

const COUNT = (title: string): Column => ({ title, value: (r) => number(r.count) });
const PREVIOUS: Column = { title: "Previous period", value: (r) => number(r.previous) };
const VISITORS: Column = { title: "Visitors", value: (r) => number(r.visitors) };
const TIME: Column = { title: "Avg. time on page", value: (r) => timeText(r.avgTimeMs) };

/** An entry page of a conversion; empty when the visit was not counted. */
const entryPageLabel = (key: string) => key || "Unknown (not counted, or JavaScript off)";

/** The lists shown as tables, in order; `label` names a row from its key where the key alone does not read well. */
const LIST_TABLES: {
  id: string;
  title: string;
  list: StatsList;
  label?: (key: string) => string;
  first: string;
  columns: Column[];
  empty: string;
  note?: string;
}[] = [
  {
    id: "stats-pages",
    title: "Top pages",
    list: "page",
    first: "Page",
    columns: [COUNT("Views"), VISITORS, TIME, PREVIOUS],
    empty: "No page views in this period.",
  },
  {
    id: "stats-lawyers",
    title: "Top lawyer profiles",
    list: "lawyers",
    first: "Lawyer",
    columns: [COUNT("Views"), VISITORS, TIME, PREVIOUS],
    empty: "No profile views in this period.",
  },
  {
    id: "stats-insights",
    title: "Top insights",
    list: "insights",
    first: "Article",
    columns: [COUNT("Views"), VISITORS, TIME, PREVIOUS],
    empty: "No article views in this period.",
  },
  {
    id: "stats-entries",
    title: "Entry pages",
    list: "entry",
    first: "Page a visit began on",
    columns: [COUNT("Visits"), PREVIOUS],
    empty: "No visits in this period.",
  },
  {
    id: "stats-referrers",
    title: "Referrers",
    list: "referrer",
    label: referrerLabel,
    first: "Came from",
    columns: [COUNT("Visits"), PREVIOUS],
    empty: "No visits from other sites in this period.",
    note: "Search engines are grouped under their name whatever their country's address.",
  },
  {
    id: "stats-campaigns",
    title: "Campaigns",
    list: "campaign",
    first: "Source / medium / campaign",
    columns: [COUNT("Visits"), PREVIOUS],
    empty: "No visits from tagged links (utm_source, utm_medium, utm_campaign) in this period.",
  },
  {
    id: "stats-search",
    title: "Site search terms",
    list: "search",
    first: "Term",
    columns: [COUNT("Searches"), PREVIOUS],
    empty: "No searches that found something in this period.",
  },
  {
    id: "stats-search-none",
    title: "Searches that found nothing",
    list: "search-none",
    first: "Term",
    columns: [COUNT("Searches"), PREVIOUS],
    empty: "No search came back empty in this period.",
  },
  {
    id: "stats-outbound",
    title: "Calls, e-mails and downloads",
    list: "outbound",
    label: (key) => {
      const kind = outboundKind(key);
      return `${kind ? OUTBOUND_LABELS[kind] : "Link"}: ${key.replace(/^(tel|mailto):/i, "")}`;
    },
    first: "Action",
    columns: [COUNT("Clicks"), PREVIOUS],
    empty: "No phone, e-mail, contact card or PDF link was used in this period.",
  },
  {
    id: "stats-enquiries",
    title: "Enquiries sent, by the page the visit began on",
    list: "conversion:enquiry",
    label: entryPageLabel,
    first: "Entry page",
    columns: [COUNT("Enquiries"), PREVIOUS],
    empty: "No enquiry was sent in this period.",
  },
  {
    id: "stats-subscriptions",
    title: "Subscriptions confirmed, by the page the visit began on",
    list: "conversion:subscription",
    label: entryPageLabel,
    first: "Entry page",
    columns: [COUNT("Subscriptions"), PREVIOUS],
    empty: "No subscription was confirmed in this period.",
  },
  {
    id: "stats-devices",
    title: "Devices",
    list: "device",
    label: (key) => key.charAt(0).toUpperCase() + key.slice(1),
    first: "Device",
    columns: [COUNT("Page views"), VISITORS, PREVIOUS],
    empty: "No page views in this period.",
  },
  {
    id: "stats-browsers",
    title: "Browsers",
    list: "browser",
    first: "Browser",
    columns: [COUNT("Page views"), VISITORS, PREVIOUS],
    empty: "No page views in this period.",
  },
];

/** A summary figure: this period's and the previous one's, as numbers (for the change) and as shown. */
function figure(
  label: string,
  current: number | null,
  previous: number | null,
  show: (n: number | null) => string = (n) => number(n ?? 0),
) {
  return { label, current: current ?? 0, previous: previous ?? 0, text: show(current), previousText: show(previous) };
}

/** One of the custom range's dates; on a wrong range it keeps what was typed and points to the message. */
function CustomDate({ name, label, value, invalid }: { name: "from" | "to"; label: string; value: string; invalid: boolean }) {
  return (
    <div>
      <label htmlFor={`stats-${name}`} className={labelClass}>
        {label}
      </label>
      <input
        id={`stats-${name}`}
        type="date"
        name={name}
        defaultValue={value}
        aria-describedby={invalid ? "stats-range-error" : undefined}
        aria-invalid={invalid ? true : undefined}
        className={inputClass}
      />
    </div>
  );
}

export default function Statistics({ loaderData }: Route.ComponentProps) {
  const { range, report, error, typed, optedOut, rolledAtText, query } = loaderData;
  const { totals, previous, series, lists } = report;
  const chart = useMemo<ChartSeries>(
    () => ({
      labels: series.points.map((p) => (series.unit === "hour" ? hourLabel(new Date(p.at)) : dayLabel(p.at))),
      ticks: series.points.map((p) => (series.unit === "hour" ? hourLabel(new Date(p.at)) : dayTick(p.at))),
      x: series.points.map((_, i) => i),
      visitors: series.points.map((p) => p.visitors),
      views: series.points.map((p) => p.views),
    }),
    [series],
  );
  const exportHref = `/dashboard/statistics/export${query}`;
  // A wrong custom range: the focus goes to its first date, whose message is read with it.
  const periodForm = useFocusFirstInvalid(error);
  const periodText =
    range.days === 1
      ? `${dayLabel(range.from)}, compared with ${dayLabel(range.previousFrom)}`
      : `${dayLabel(range.from)} to ${dayLabel(range.to)} (${range.days} days), compared with ${dayLabel(range.previousFrom)} to ${dayLabel(range.previousTo)}`;
  const figures = [
    figure("Visitors", totals.visitors, previous.visitors),
    figure("Page views", totals.views, previous.views),
    figure("Visits", totals.visits, previous.visits),
    figure("Avg. time on page", totals.avgTimeMs, previous.avgTimeMs, timeText),
    figure("Enquiries sent", lists["conversion:enquiry"].total, lists["conversion:enquiry"].previousTotal),
    figure("Subscriptions confirmed", lists["conversion:subscription"].total, lists["conversion:subscription"].previousTotal),
  ];
  return (
    <AdminPage
      title="Statistics"
      back={{ to: "/dashboard", label: "Dashboard" }}
      actions={
        <a href={exportHref} className={btnSecondary} download>
          <Download aria-hidden="true" className="size-4" /> Download CSV
        </a>
      }
    >
      <Form ref={periodForm} method="get" className="mb-4 rounded border border-line bg-white p-5" aria-label="Choose the period">
        <fieldset>
          <legend className={labelClass}>Period (Toronto time)</legend>
          <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
            {[...RANGE_PRESETS, "custom" as RangePreset].map((p) => (
              <label key={p} className="inline-flex items-center gap-2">
                <input type="radio" name="range" value={p} defaultChecked={range.preset === p && !error} className="size-4 accent-accent" />
                {RANGE_LABELS[p]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          <CustomDate
            name="from"
            label="From (custom)"
            value={error ? typed.from : range.preset === "custom" ? range.from : ""}
            invalid={!!error}
          />
          <CustomDate
            name="to"
            label="To (custom)"
            value={error ? typed.to : range.preset === "custom" ? range.to : ""}
            invalid={!!error}
          />
          <div className="flex items-end">
            <button type="submit" className={btnPrimary}>
              <Filter aria-hidden="true" className="size-4" /> Show
            </button>
          </div>
        </div>
        {error ? (
          <p id="stats-range-error" className="mt-3 font-semibold text-error" role="alert">
            {error} Showing the last 30 days.
          </p>
        ) : null}
      </Form>

      <p className="mb-6 text-muted" data-testid="stats-period">
        {periodText}.{" "}
        {rolledAtText
          ? `Figures as of ${rolledAtText} (updated every minute).`
          : "No figures yet: they appear a minute after the first visit."}
      </p>

      <section aria-labelledby="stats-summary-title" className="mb-6">
        <h2 id="stats-summary-title" className="sr-only">
          Summary
        </h2>
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="stats-summary">
          {figures.map((f) => (
            <div key={f.label} className="rounded border border-line bg-white p-4">
              <dt className="text-sm font-semibold text-muted">{f.label}</dt>
              <dd className="mt-1 font-serif text-3xl font-semibold text-ink" data-figure={f.label}>
                {f.text}
              </dd>
              <dd className="mt-1">
                <Change current={f.current} previous={f.previous} />{" "}
                <span className="text-sm text-muted">(previous period: {f.previousText})</span>
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="stats-chart-title" className="mb-6 rounded border border-line bg-white p-4">
        <h2 id="stats-chart-title" className="font-serif text-xl font-semibold text-ink">
          Visitors and page views {series.unit === "hour" ? "per hour" : "per day"}
        </h2>
        <p className="mt-1 text-sm text-muted">
          Solid line: visitors; dashed line: page views. The table beside the chart holds the same figures.
        </p>
        <div className="mt-3 grid gap-4 lg:grid-cols-[3fr_2fr]">
          <StatsChart series={chart} unit={series.unit} />
          <ScrollRegion className="max-h-80 overflow-auto" label="Visitors and page views, table">
            <table className="w-full text-left text-sm" data-testid="stats-series">
              <caption className="sr-only">Visitors and page views {series.unit === "hour" ? "per hour" : "per day"}</caption>
              <thead>
                <tr className="border-b border-line">
                  <th scope="col" className="py-1 pr-3 font-semibold">
                    {series.unit === "hour" ? "Hour" : "Day"}
                  </th>
                  <th scope="col" className="py-1 pl-3 text-right font-semibold">
                    Visitors
                  </th>
                  <th scope="col" className="py-1 pl-3 text-right font-semibold">
                    Page views
                  </th>
                </tr>
              </thead>
              <tbody>
                {series.points.map((p, i) => (
                  <tr key={p.at} className="border-b border-line last:border-0">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      {chart.labels[i]}
                    </th>
                    <td className="py-1 pl-3 text-right tabular-nums">{number(p.visitors)}</td>
                    <td className="py-1 pl-3 text-right tabular-nums">{number(p.views)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </div>
      </section>

      <div className="grid gap-4 lg:grid-cols-2">
        {LIST_TABLES.map(({ list: name, label, ...table }) => (
          <ListTable
            key={table.id}
            {...table}
            list={label ? { ...lists[name], rows: lists[name].rows.map((r) => ({ ...r, label: label(r.key) })) } : lists[name]}
          />
        ))}
      </div>

      <section aria-labelledby="stats-browser-title" className="mt-6 rounded border border-line bg-white p-5">
        <h2 id="stats-browser-title" className="font-serif text-xl font-semibold text-ink">
          This browser
        </h2>
        <p className="mt-1" data-testid="stats-opt-out-state">
          {optedOut
            ? "This browser is not counted, even when you are signed out."
            : "Signed in, you are never counted. Signed out, this browser is counted like a visitor's."}
        </p>
        <p className="mt-1 text-sm text-muted">
          The choice is kept in a cookie of this site on this browser only (set here, never by the public pages). How the statistics are
          counted:{" "}
          <Link to="/privacy#statistics" className={linkClass}>
            privacy notice
          </Link>
          .
        </p>
        <Form method="post" className="mt-3" aria-label="Count this browser or not">
          <input type="hidden" name="count" value={optedOut ? "on" : "off"} />
          <button type="submit" className={btnSecondary}>
            {optedOut ? "Count this browser again" : "Don't count this browser"}
          </button>
        </Form>
      </section>
    </AdminPage>
  );
}

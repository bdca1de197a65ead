/**
 * GET /dashboard/statistics/export?range=… — the Statistics screen's figures
 * for the chosen period as CSV (UTF-8 with a byte-order mark, so spreadsheet
 * programs read accents): the totals, the series, then every list in full,
 * each row with the previous period's figure. Written by lib/csv.ts (every
 * cell quoted; a search term typed as "=…" stays text in any locale).
 */
import type { Route } from "./+types/statistics-export";
import { statsReport, STATS_LISTS } from "~/.server/db/stats-report";
import { csvBody, csvHeaders } from "~/lib/csv";
import type { RouteHandle } from "~/lib/route-handle";
import { parseRange } from "~/lib/stats";

export const handle = { permission: "statistics" } satisfies RouteHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const { range } = parseRange(new URL(request.url).searchParams);
  const report = await statsReport(range, { limit: null });
  const lines: (string | number | null)[][] = [
    ["section", "key", "count", "previous_period", "visitors", "avg_time_on_page_s"],
    ["period", `${range.from} to ${range.to}`, range.days, null, null, null],
    ["previous_period", `${range.previousFrom} to ${range.previousTo}`, range.days, null, null, null],
    ["total", "visitors", report.totals.visitors, report.previous.visitors, null, null],
    ["total", "page_views", report.totals.views, report.previous.views, null, null],
    ["total", "visits", report.totals.visits, report.previous.visits, null, null],
    [
      "total",
      "avg_time_on_page_s",
      report.totals.avgTimeMs === null ? null : Math.round(report.totals.avgTimeMs / 1000),
      report.previous.avgTimeMs === null ? null : Math.round(report.previous.avgTimeMs / 1000),
      null,
      null,
    ],
    ...report.series.points.map((p) => [`${report.series.unit}_page_views`, p.at, p.views, null, p.visitors, null]),
  ];
  for (const name of STATS_LISTS) {
    const list = report.lists[name];
    lines.push([`${name}_total`, "", list.total, list.previousTotal, null, null]);
    for (const row of list.rows)
      lines.push([name, row.key, row.count, row.previous, row.visitors, row.avgTimeMs === null ? null : Math.round(row.avgTimeMs / 1000)]);
  }
  return new Response(csvBody(lines), { headers: csvHeaders(`statistics-${range.from}-to-${range.to}.csv`) });
}

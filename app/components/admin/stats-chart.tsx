/**
 * The Statistics screen's line chart of visitors and page views (uPlot, the
 * dashboard's one chart library, loaded by this screen only, in the browser:
 * the server renders the table, the chart is drawn once the screen has
 * hydrated). The chart is a picture of the table beside it, which holds the
 * same figures for screen readers and keyboards: the canvas is hidden from
 * assistive technology and takes no focus.
 */
import { useEffect, useRef } from "react";
import type uPlot from "uplot";

/** `ticks`: the x axis's labels (short: "Nov 28"); `labels`: the table's. */
export type ChartSeries = { labels: string[]; ticks: string[]; x: number[]; visitors: number[]; views: number[] };

/** Colours of the palette (app/site.css): accent teal for visitors, brass for views; both ≥ 3:1 on white. */
const VISITORS = "#1d5c63";
const VIEWS = "#8a6a2f";

export function StatsChart({ series, unit }: { series: ChartSeries; unit: "hour" | "day" }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      const width = () => Math.max(280, element.clientWidth);
      const tickAt = (value: number) => series.ticks[series.x.indexOf(value)] ?? "";
      plot = new UPlot(
        {
          width: width(),
          height: 260,
          legend: { show: false },
          // Room on the right for half of the last label, centred on the last point.
          padding: [null, 32, null, null],
          cursor: { show: true, points: { show: true } },
          scales: { x: { time: false } },
          axes: [
            {
              stroke: "#4a5565",
              grid: { stroke: "#efebe2" },
              values: (_u, splits) => splits.map((v) => tickAt(v)),
              space: unit === "hour" ? 60 : 80,
            },
            { stroke: "#4a5565", grid: { stroke: "#efebe2" }, values: (_u, splits) => splits.map((v) => v.toLocaleString("en-CA")) },
          ],
          series: [{}, { label: "Visitors", stroke: VISITORS, width: 2 }, { label: "Page views", stroke: VIEWS, width: 2, dash: [6, 4] }],
        },
        [series.x, series.visitors, series.views],
        element,
      );
      observer = new ResizeObserver(() => plot?.setSize({ width: width(), height: 260 }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [series, unit]);
  // min-w-0: a grid item that can shrink below the drawn canvas, so the chart follows a narrower window.
  return <div ref={holder} aria-hidden="true" className="min-h-[260px] w-full min-w-0 overflow-hidden" data-testid="stats-chart" />;
}

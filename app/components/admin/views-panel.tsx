/**
 * The edit screens' small statistics panel: "1,234 views in the last 30 days"
 * of this article's or lawyer's public page (its current address and any old
 * one it moved from), with a link to the Statistics screen. Shown to roles
 * with the `statistics` permission; `views` is null otherwise.
 */
import { ChartLine } from "lucide-react";
import { Link } from "react-router";
import { linkClass } from "./styles";

export function ViewsPanel({ views }: { views: number | null | undefined }) {
  if (views === null || views === undefined) return null;
  return (
    <p className="mb-4 flex flex-wrap items-center gap-2 rounded border border-line bg-white px-4 py-3" data-testid="views-panel">
      <ChartLine aria-hidden="true" className="size-5 text-accent" />
      <span>
        <strong>{views.toLocaleString("en-CA")}</strong> {views === 1 ? "view" : "views"} in the last 30 days
      </span>
      <Link to="/dashboard/statistics" className={linkClass}>
        Statistics
      </Link>
    </p>
  );
}

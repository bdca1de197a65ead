/**
 * A subscriber import's progress (issue 42): rows read of the file, accepted,
 * refused; when done, the refused rows with their reasons. While it runs the
 * hydrated screen reads /dashboard/subscribers/imports/:id every
 * PROGRESS_REFRESH_MS (use-progress.ts); without JavaScript a refresh of the
 * page shows it.
 */
import type { ImportView } from "~/lib/subscriber-import-view";
import { ScrollRegion } from "~/components/scroll-region";
import { ColumnHeads } from "./column-heads";
import { linkClass } from "./styles";
import { ProgressLines } from "./progress-lines";
import { useProgress } from "./use-progress";

const n = (v: number) => v.toLocaleString("en-CA");

export function importProgressText(i: ImportView): string {
  const counts = `${n(i.rowsRead)} of ${n(i.rowsTotal)} rows read: ${n(i.accepted)} accepted, ${n(i.refused)} refused`;
  if (i.status === "queued") return `Waiting to start: ${n(i.rowsTotal)} rows.`;
  if (i.status === "running") return `Importing: ${counts}.`;
  if (i.status === "failed") return `The import stopped: ${i.error}`;
  return `Import finished: ${counts}. Nothing was sent to anyone.`;
}

export function ImportProgress({ initial }: { initial: ImportView }) {
  const progress = useProgress({
    initial,
    url: `/dashboard/subscribers/imports/${initial.id}`,
    select: (data: { import: ImportView }) => (data.import.id === initial.id ? data.import : undefined),
    going: (i) => i.status === "queued" || i.status === "running",
  });
  const { current, going } = progress;
  return (
    <div className="mt-6 rounded border border-line bg-white p-4" data-import-status={current.status}>
      <h3 className="font-semibold wrap-anywhere">
        Last import{current.fileName ? `: ${current.fileName}` : ""} ({current.created}, {current.createdBy})
      </h3>
      <ProgressLines
        progress={progress}
        text={importProgressText(current)}
        bar={{ done: current.rowsRead, total: current.rowsTotal, label: "Rows read" }}
      />
      {!going && current.refusals.length ? (
        <ScrollRegion className="mt-4 overflow-x-auto" label="Refused rows, table">
          <table className="w-full border border-line text-left text-sm">
            <caption className="px-3 py-2 text-left font-semibold">
              Refused rows
              {current.refused > current.refusals.length ? ` (the first ${n(current.refusals.length)} of ${n(current.refused)})` : ""}
            </caption>
            <ColumnHeads names={["Row", "Address", "Reason"]} className="bg-soft" cellClassName="px-3 py-2" />
            <tbody className="divide-y divide-line">
              {current.refusals.map((r) => (
                <tr key={r.row}>
                  <td className="px-3 py-2">{r.row}</td>
                  <td className="px-3 py-2 wrap-anywhere">{r.email || "(none)"}</td>
                  <td className="min-w-36 px-3 py-2">{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      {!going && current.refusals.length ? (
        <p className="mt-3">
          <a href={`/dashboard/subscribers/imports/${current.id}/refused`} className={linkClass} download>
            {current.refused > current.refusalsKept
              ? `Download the first ${n(current.refusalsKept)} refused rows (CSV)`
              : "Download the refused rows (CSV)"}
          </a>{" "}
          to mend them in the file and import those rows again.
        </p>
      ) : null}
    </div>
  );
}

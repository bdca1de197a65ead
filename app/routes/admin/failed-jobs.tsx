/**
 * /dashboard/failed-jobs (owners): the job queue's dead-letter list. Timed
 * work (publishing, sweeps, retention, statistics, mail) that failed its last
 * attempt, newest first, with its error; "Try again" sends one to its queue
 * again (decision 0026).
 */
import { RotateCcw } from "lucide-react";
import { useNavigation } from "react-router";
import type { Route } from "./+types/failed-jobs";
import { failedJobsData, retryFailedJobAction } from "~/.server/admin/failed-jobs.server";
import { AdminPage } from "~/components/admin/admin-page";
import { IntentButton } from "~/components/admin/intent-button";
import { ColumnHeads } from "~/components/admin/column-heads";
import { ScrollRegion } from "~/components/scroll-region";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "failed-jobs",
  nav: { label: "Failed jobs", text: "Timed work that failed its last try, with the error: try it again.", order: 135, icon: "jobs" },
} satisfies RouteHandle;

export async function loader() {
  return failedJobsData();
}

export async function action({ request, context }: Route.ActionArgs) {
  return retryFailedJobAction(request, context);
}

/** A failed job as its button names it: what it is, and which one. */
function named(job: { job: string; detail: string | null }) {
  return job.detail ? `${job.job} (${job.detail})` : job.job;
}

export default function FailedJobs({ loaderData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const { jobs, notice } = loaderData;
  return (
    <AdminPage title="Failed jobs" back={{ to: "/dashboard", label: "Dashboard" }}>
      <p className="mb-6 text-muted">
        The site&apos;s timed work (scheduled publishing, the Trash and picture sweeps, retention, statistics, mail) is tried up to six
        times, 30 seconds to 30 minutes apart. A job that failed every try is listed here with its last error until you try it again (kept
        30 days).
      </p>
      {notice ? <p className="py-8 text-center text-muted">{notice}</p> : null}
      {!notice && jobs.length === 0 ? <p className="py-8 text-center text-muted">No failed jobs.</p> : null}
      {jobs.length > 0 ? (
        <ScrollRegion className="overflow-x-auto rounded border border-line bg-white" label="Failed jobs">
          <table className="w-full text-left">
            <caption className="sr-only">Failed jobs, newest first</caption>
            <ColumnHeads names={["Job", "Failed", "Error", "Actions"]} />
            <tbody className="divide-y divide-line">
              {jobs.map((j) => (
                <tr key={j.id} className="align-top">
                  <th scope="row" className="px-4 py-3 font-normal">
                    {j.job}
                    {j.detail ? <span className="block min-w-36 text-sm text-muted wrap-anywhere">{j.detail}</span> : null}
                  </th>
                  <td className="px-4 py-3 text-sm">
                    {j.failed}
                    <span className="block text-muted">
                      {j.attempts} {j.attempts === 1 ? "try" : "tries"}
                    </span>
                  </td>
                  <td className="min-w-48 px-4 py-3 text-sm wrap-anywhere">{j.error}</td>
                  <td className="px-4 py-3">
                    <IntentButton
                      intent="retry"
                      id={j.id}
                      formLabel={`Try ${named(j)} (failed ${j.failed}) again`}
                      buttonLabel={`Try again: ${named(j)}, failed ${j.failed}`}
                      busy={busy}
                    >
                      <RotateCcw aria-hidden="true" className="size-4" /> Try again
                    </IntentButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </AdminPage>
  );
}

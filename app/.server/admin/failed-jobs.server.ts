/**
 * The Failed jobs screen (owners): the job queue's dead-letter list (timed
 * work that failed its last attempt, with its error) and "Try again", which
 * sends one to its queue as a fresh job (decision 0026), recorded in Activity.
 */
import { data, redirect } from "react-router";
import { formatWhen } from "~/lib/activity";
import { MSG } from "~/lib/forms/messages";
import { getJobQueue } from "../http/startup";
import type { RequestContext } from "../http/request-context";
import { isRefusal, readForm, type FailureData } from "../http/form-post";
import { log } from "../log";
import { recordAudit } from "../db/audit";
import { flashHeaders } from "./flash.server";
import { actorOf } from "./guard.server";

export const RETRY_ERROR = "An error occurred: the job was not sent again. Please try again later.";
const NOT_RUNNING = "The job queue is not running on this server, so its failed jobs cannot be read here.";
/** pg-boss's job ids. */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function failedJobsData() {
  const queue = getJobQueue();
  if (!queue) return { notice: NOT_RUNNING, jobs: [] };
  const jobs = await queue.failedJobs();
  return { notice: null, jobs: jobs.map(({ failedAt, ...job }) => ({ ...job, failed: formatWhen(failedAt) })) };
}

export async function retryFailedJobAction(request: Request, context: RequestContext) {
  const actor = actorOf(context, RETRY_ERROR);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request);
  if (isRefusal(form)) return form;
  const id = form.get("id");
  if (form.get("intent") !== "retry" || typeof id !== "string" || !JOB_ID.test(id))
    return data<FailureData>({ status: { tone: "error", text: MSG.unreadableForm } }, { status: 400 });
  const queue = getJobQueue();
  if (!queue) return data<FailureData>({ status: { tone: "error", text: NOT_RUNNING } }, { status: 409 });
  try {
    const retried = await queue.retryFailedJob(id);
    if (retried === "gone")
      return data<FailureData>(
        { status: { tone: "error", text: "That job is no longer on the list (someone sent it again already). Reload the page." } },
        { status: 404 },
      );
    log("info", "failed job sent again", { id, by: actor.label });
    await recordAudit(undefined, actor, { action: "retry", itemType: "job", itemId: id, itemLabel: retried.label });
    const text =
      retried.outcome === "queued"
        ? "The job has been sent again: it runs within a few seconds."
        : "A run of that job was already waiting: it runs within a few seconds. The failed one is off the list.";
    return redirect("/dashboard/failed-jobs", { headers: await flashHeaders({ tone: "success", text }) });
  } catch (error) {
    log("error", "failed job not sent again", { id, error: (error as Error).message });
    return data<FailureData>({ status: { tone: "error", text: RETRY_ERROR } }, { status: 503 });
  }
}

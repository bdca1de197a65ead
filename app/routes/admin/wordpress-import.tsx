/**
 * /dashboard/import/wordpress (owners and admins; issue 46): move a
 * WordPress site in. 1. Upload the export (Tools → Export → All content):
 * with JavaScript the file is streamed to the server as it is read (any
 * size); without, a form upload of up to 20 MB. Either way the export is
 * kept in the site's storage and a dry run is queued for the job queue's
 * `wordpress-import` job (app/.server/wordpress/task.ts), which any instance
 * may run; its progress shows here, read again every PROGRESS_REFRESH_MS. 2. Its report: counts, each
 * category's mapping (change it here), pages as articles or skipped,
 * unmatched authors, the redirects and the problems. 3. Import: the same
 * stored export with the chosen mapping, queued the same way, with
 * progress; then its report. The work itself is app/.server/wordpress/import.ts.
 */
import { useEffect, useState, type FormEvent } from "react";
import { data, Form, redirect, useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/wordpress-import";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import { isRefusal, parseId, readForm, uploadedFile } from "~/.server/http/form-post";
import { getWordPressImport, latestWordPressImports } from "~/.server/db/wordpress-imports";
import { servicesContext } from "~/.server/http/request-context";
import { log } from "~/.server/log";
import { StorageUnavailable } from "~/.server/storage/storage";
import type { ImportReport } from "~/.server/wordpress/import";
import { IMPORT_FAILED, queueFirstDryRun, queueImport, STORAGE_DOWN, type ImportChoices } from "~/.server/wordpress/task";
import { PROGRESS_REFRESH_MS } from "~/components/admin/use-progress";
import { AdminPage } from "~/components/admin/admin-page";
import { btnPrimary, btnSecondary, inputClass, labelClass } from "~/components/admin/styles";
import { staffDateTime } from "~/lib/dates";
import { formText } from "~/lib/forms/form-data";
import type { Status } from "~/lib/forms/messages";
import { ARTICLE_CATEGORIES, type ArticleCategory } from "~/lib/practice";
import type { RouteHandle } from "~/lib/route-handle";
import { CATEGORY_TARGETS, type CategoryTarget } from "~/lib/wordpress-import";

export const handle = {
  permission: "wordpress-import",
  nav: {
    // The navigation's entry is short (all of the owner's screens fit one row at 1280 px); the home card says it in full.
    label: "WordPress",
    title: "Move from WordPress",
    text: "Import a WordPress site's posts, pages, pictures and files, with a redirect from every old address.",
    order: 100,
    icon: "import",
  },
} satisfies RouteHandle;

/** The export sent by the form itself (without JavaScript); with it, the page streams a file of any size to wordpress-upload.ts. */
export const MAX_FORM = 20 * 1024 * 1024;
const FORM_TOO_LARGE =
  "The export is larger than 20 MB, the most this form takes without JavaScript. Turn JavaScript on (the page then sends a file of any size), or run npm run import:wordpress on the server.";
const GONE_HERE =
  "That export is no longer stored (an export is removed once imported, and a day after a dry run nobody imported). Upload it again.";
const REDIRECTS_SHOWN = 300;
const PROBLEMS_SHOWN = 500;

const TARGET_LABELS: Record<CategoryTarget, string> = {
  insurance: "Insurance defence",
  construction: "Construction",
  cyber: "Cyber",
  events: "Events",
  news: "News (with the default category)",
  none: "Nothing (the default category)",
};

export function meta() {
  return [{ title: "Move from WordPress | Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = parseId(url.searchParams.get("task"));
  const run = id ? await getWordPressImport(id) : undefined;
  const recent = await latestWordPressImports();
  const view = (t: NonNullable<typeof run>) => {
    const progress = t.progress as { message?: string; done?: number; total?: number };
    const report = t.report as ImportReport | null;
    return {
      id: t.id,
      status: t.status,
      dryRun: t.dry_run,
      fileName: t.file_name,
      stored: t.upload !== null,
      started: staffDateTime(t.created_at),
      progress: { message: progress.message ?? "Waiting to start…", done: progress.done ?? 0, total: progress.total ?? 0 },
      error: t.error,
      report: report
        ? {
            ...report,
            redirectCount: report.redirects.length,
            redirects: report.redirects.slice(0, REDIRECTS_SHOWN),
            problemCount: report.problems.length,
            problems: report.problems.slice(0, PROBLEMS_SHOWN),
          }
        : null,
    };
  };
  return {
    task: run ? view(run) : null,
    recent: recent.map((t) => ({
      id: t.id,
      status: t.status,
      dryRun: t.dry_run,
      fileName: t.file_name,
      started: staffDateTime(t.created_at),
    })),
  };
}

type ActionData = { status: Status };

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, IMPORT_FAILED);
  if (isRefusal(actor)) return actor;
  const staff = staffOf(context);
  const jobQueue = context.get(servicesContext).jobQueue;
  const fail = (text: string, status = 400) => data<ActionData>({ status: { tone: "error", text } }, { status });
  // 1. A form upload (without JavaScript; with it, the page streams the file to wordpress-upload.ts).
  const form = await readForm(request, MAX_FORM, FORM_TOO_LARGE);
  if (isRefusal(form)) return form;
  if (formText(form, "intent") === "upload") {
    const file = uploadedFile(form, "file");
    if (!file || file.size === 0) return fail("Choose the export file (an .xml file from Tools → Export in WordPress).");
    let id: number;
    try {
      id = await queueFirstDryRun({ stream: file.stream(), name: file.name, maxBytes: MAX_FORM }, actor, staff.email, jobQueue);
    } catch (error) {
      if (!(error instanceof StorageUnavailable)) throw error;
      log("error", "wordpress export not stored", { error: error.message });
      return fail(STORAGE_DOWN, 503);
    }
    return redirect(`/dashboard/import/wordpress?task=${id}`);
  }
  // 2. The import (or another dry run) of a dry run's stored export, with the mapping chosen on its report.
  const dryRunId = parseId(formText(form, "run"));
  const dryRun = dryRunId ? await getWordPressImport(dryRunId) : undefined;
  if (!dryRun?.upload) return fail(GONE_HERE);
  const categoryMap: Record<string, CategoryTarget> = {};
  for (const [name, value] of form.entries()) {
    if (name.startsWith("map:") && typeof value === "string" && (CATEGORY_TARGETS as readonly string[]).includes(value))
      categoryMap[name.slice(4)] = value as CategoryTarget;
  }
  const defaultCategory = formText(form, "defaultCategory");
  const choices: ImportChoices = {
    pages: formText(form, "pages") === "skip" ? "skip" : "articles",
    defaultCategory: (ARTICLE_CATEGORIES as readonly string[]).includes(defaultCategory)
      ? (defaultCategory as ArticleCategory)
      : "insurance",
    categoryMap,
  };
  const id = await queueImport(
    { upload: dryRun.upload, fileName: dryRun.file_name, dryRun: formText(form, "intent") !== "import", choices },
    actor,
    staff.email,
    jobQueue,
  );
  return redirect(`/dashboard/import/wordpress?task=${id}`);
}

function Progress({ task }: { task: NonNullable<Route.ComponentProps["loaderData"]["task"]> }) {
  const { revalidate, state } = useRevalidator();
  const running = task.status === "running" || task.status === "queued";
  // The run is read again from the database (any instance may be running it) until it ends.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => state === "idle" && void revalidate(), PROGRESS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [running, revalidate, state]);
  if (!running) return null;
  const { done, total, message } = task.progress;
  const what = task.dryRun ? "Dry run" : "Import";
  return (
    <div className="mb-6 rounded border border-line bg-white p-4" data-import-status={task.status}>
      <p role="status" className="mb-2 font-semibold wrap-anywhere">
        {what} of {task.fileName}: {task.status === "queued" && !task.error ? "Waiting to start…" : message}
      </p>
      <progress className="h-3 w-full" max={total || 1} value={total ? done : undefined} aria-label={`${what} progress`} />
      {task.status === "queued" && task.error ? <p className="mt-2">The last attempt stopped: {task.error}</p> : null}
      <p className="mt-2 text-sm text-muted">You can leave this page: the work goes on, and this page shows it when you come back.</p>
    </div>
  );
}

export default function WordPressImport({ loaderData, actionData }: Route.ComponentProps) {
  const { task, recent } = loaderData;
  const navigate = useNavigate();
  const [sending, setSending] = useState("");
  const failed = (actionData as ActionData | undefined)?.status;

  /** With JavaScript the file is sent as it is read (no size limit of a form), then the page follows its task. */
  async function stream(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement | null;
    const file = input?.files?.[0];
    if (!file) return;
    event.preventDefault();
    setSending(`Sending ${file.name} (${Math.ceil(file.size / 1024 / 1024)} MB)…`);
    const response = await fetch("/dashboard/import/wordpress/upload", {
      method: "POST",
      headers: { "Content-Type": "application/xml", "X-File-Name": file.name },
      body: file,
    });
    const answer = (await response.json().catch(() => null)) as { task?: number; status?: Status } | null;
    if (answer?.task) return navigate(`/dashboard/import/wordpress?task=${answer.task}`);
    setSending(answer?.status?.text ?? "The file was not received. Try again.");
  }

  const report = task?.report;
  return (
    <AdminPage title="Move from WordPress" back={{ to: "/dashboard", label: "Dashboard" }}>
      <p className="mb-6 text-muted">
        Bring a WordPress site&rsquo;s posts and pages, pictures and files here, with a permanent redirect from every old address. Nothing
        is written until you press Import after the dry run&rsquo;s report. Importing the same export again changes nothing; a newer export
        updates what changed.
      </p>
      {failed ? (
        <p role="alert" className="mb-4 font-semibold text-error">
          {failed.text}
        </p>
      ) : null}

      {task ? <Progress task={task} /> : null}

      {!task || task.status === "failed" || (task.status === "done" && (!task.dryRun || !task.stored)) ? (
        <section aria-labelledby="upload-heading" className="mb-8 rounded border border-line bg-white p-4">
          <h2 id="upload-heading" className="mb-3 text-xl font-semibold">
            1. Upload the export
          </h2>
          <Form
            method="post"
            encType="multipart/form-data"
            onSubmit={(e) => void stream(e)}
            aria-labelledby="upload-heading"
            className="flex flex-wrap items-end gap-2"
          >
            <input type="hidden" name="intent" value="upload" />
            <div className="min-w-0 flex-1 basis-64">
              <label htmlFor="wxr-file" className={labelClass}>
                WordPress export (.xml)
              </label>
              <input
                id="wxr-file"
                name="file"
                type="file"
                accept=".xml,application/xml,text/xml"
                required
                className={inputClass}
                aria-describedby="wxr-hint"
              />
              <p id="wxr-hint" className="mt-1 text-sm text-muted">
                In WordPress: Tools → Export → All content → Download Export File.
              </p>
            </div>
            <button type="submit" className={btnPrimary} disabled={!!sending}>
              Upload and check
            </button>
          </Form>
          {sending ? (
            <p role="status" className="mt-2">
              {sending}
            </p>
          ) : null}
        </section>
      ) : null}

      {task?.status === "failed" ? (
        <p role="alert" className="mb-6 font-semibold text-error">
          The {task.dryRun ? "dry run" : "import"} stopped: {task.error ?? "an unknown error."}
        </p>
      ) : null}

      {task?.status === "done" && report ? (
        <section aria-labelledby="report-heading" className="mb-8">
          <h2 id="report-heading" className="mb-3 text-xl font-semibold">
            {task.dryRun ? "2. Check the dry run, then import" : "Imported"}: {task.fileName}
          </h2>
          <p className="mb-3 break-all">
            From {report.site} (WXR {report.wxrVersion || "?"}).
          </p>
          <dl className="mb-6 grid grid-cols-2 gap-x-4 gap-y-1 rounded border border-line bg-white p-4 sm:grid-cols-4">
            {Object.entries({
              Posts: report.counts.posts,
              Pages: report.counts.pages,
              Attachments: report.counts.attachments,
              Published: report.counts.published,
              Drafts: report.counts.drafts,
              Scheduled: report.counts.scheduled,
              Private: report.counts.private,
              [task.dryRun ? "To create" : "Created"]: report.counts.created,
              [task.dryRun ? "To update" : "Updated"]: report.counts.updated,
              Unchanged: report.counts.unchanged,
              "Files downloaded": report.counts.filesDownloaded,
              Redirects: report.redirectCount,
            }).map(([label, n]) => (
              <div key={label}>
                <dt className="text-sm text-muted">{label}</dt>
                <dd className="font-semibold">{n}</dd>
              </div>
            ))}
          </dl>

          {task.dryRun && !task.stored ? (
            <p className="mb-6">
              This export is no longer stored (it was imported, or its dry run is more than a day old): upload it again to import it.
            </p>
          ) : null}
          {task.dryRun && task.stored ? (
            <Form method="post" className="mb-6 rounded border border-line bg-white p-4" aria-label="Import choices">
              <input type="hidden" name="run" value={task.id} />
              <fieldset className="mb-4">
                <legend className={labelClass}>Pages</legend>
                <label className="mr-6 inline-flex items-center gap-2">
                  <input type="radio" name="pages" value="articles" defaultChecked={report.pages === "articles"} /> Import pages as articles
                </label>
                <label className="inline-flex items-center gap-2">
                  <input type="radio" name="pages" value="skip" defaultChecked={report.pages === "skip"} /> Skip pages
                </label>
              </fieldset>
              <div className="mb-4 max-w-sm">
                <label htmlFor="default-category" className={labelClass}>
                  Category of articles without a mapped category
                </label>
                <select id="default-category" name="defaultCategory" defaultValue={report.defaultCategory} className={inputClass}>
                  {ARTICLE_CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {TARGET_LABELS[c]}
                    </option>
                  ))}
                </select>
              </div>
              <h3 className="mb-2 font-semibold">Categories</h3>
              <ul className="mb-4 grid gap-3 sm:grid-cols-2">
                {report.categories.map((c) => (
                  <li key={c.slug}>
                    <label htmlFor={`map-${c.slug}`} className="block font-semibold break-all">
                      {c.name} ({c.posts} post{c.posts === 1 ? "" : "s"}){c.known ? "" : " — unknown: choose"}
                    </label>
                    <select id={`map-${c.slug}`} name={`map:${c.slug}`} defaultValue={c.mappedTo} className={inputClass}>
                      {CATEGORY_TARGETS.map((t) => (
                        <option key={t} value={t}>
                          {TARGET_LABELS[t]}
                        </option>
                      ))}
                    </select>
                  </li>
                ))}
              </ul>
              <div className="flex flex-wrap gap-2">
                <button type="submit" name="intent" value="import" className={btnPrimary}>
                  Import
                </button>
                <button type="submit" name="intent" value="dry-run" className={btnSecondary}>
                  Check again with these choices
                </button>
              </div>
            </Form>
          ) : null}

          <h3 className="mb-2 font-semibold">Authors</h3>
          <ul className="mb-6 list-disc pl-6">
            {report.authors.map((a) => (
              <li key={a.login} className="break-words">
                {a.name} ({a.posts}): {a.member ? `team member ${a.member.name}` : "not on the team — the articles name them as text"}
              </li>
            ))}
          </ul>

          <h3 className="mb-2 font-semibold">Problems ({report.problemCount})</h3>
          {report.problems.length ? (
            <ul className="mb-6 list-disc pl-6">
              {report.problems.map((p, i) => (
                <li key={i} className="break-words">
                  <span className="font-semibold">{p.item}</span>: {p.message}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mb-6">None.</p>
          )}

          <h3 className="mb-2 font-semibold">
            Redirects ({report.redirectCount}, each 301, one hop
            {report.redirectCount > REDIRECTS_SHOWN ? `; the first ${REDIRECTS_SHOWN} shown` : ""})
          </h3>
          <ul className="mb-6 divide-y divide-line rounded border border-line bg-white font-mono text-sm">
            {report.redirects.map((r) => (
              <li key={r.from} className="px-3 py-1 break-all">
                {r.from} <span aria-hidden="true">→</span>
                <span className="sr-only">goes to</span> {r.to}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {recent.length ? (
        <section aria-labelledby="recent-heading">
          <h2 id="recent-heading" className="mb-2 text-xl font-semibold">
            Recent runs
          </h2>
          <ul className="list-disc pl-6">
            {recent.map((r) => (
              <li key={r.id} className="break-words">
                <a href={`/dashboard/import/wordpress?task=${r.id}`} className="font-semibold text-accent underline underline-offset-2">
                  {r.dryRun ? "Dry run" : "Import"} of {r.fileName}
                </a>{" "}
                — {r.started}, {r.status}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </AdminPage>
  );
}

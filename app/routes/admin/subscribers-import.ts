/**
 * POST /dashboard/subscribers/import: a subscriber CSV file with evidence of
 * consent on each row (issue 42 item 5, CASL). The request only checks the
 * file (a CSV, not too big, the columns named, at least one row), keeps it
 * for the `subscriber-import` job and answers at once; the screen shows the
 * job's progress. Nothing is sent to anyone by an import. Recorded in
 * Activity (started, finished).
 */
import { redirect } from "react-router";
import type { Route } from "./+types/subscribers-import";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal, readForm, uploadedFile } from "~/.server/http/form-post";
import { createImport } from "~/.server/db/subscriber-imports";
import { servicesContext } from "~/.server/http/request-context";
import { log } from "~/.server/log";
import { parseCsv } from "~/lib/csv";
import { formValues } from "~/lib/forms/form-data";
import { isTopic } from "~/lib/forms/subscribe";
import { importHeader, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_TOO_LARGE } from "~/lib/forms/subscriber-import";
import { MSG } from "~/lib/forms/messages";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "subscribers" } satisfies RouteHandle;

export const IMPORT_MSG = {
  failed: MSG.updateError,
  noFile: "Choose a CSV file to import.",
  topics: "Choose at least one topic for the imported subscribers.",
  tooLarge: IMPORT_TOO_LARGE,
  notCsv: "This file is not a CSV file. Save the spreadsheet as “CSV (comma separated)” and choose that file.",
  empty: "The file has no rows under its first row (the column names).",
  tooMany: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString("en-CA")} rows. Split it into smaller files and import each.`,
  unreadable: "The upload could not be read. Please choose the file and press Upload and import again.",
  started: (rows: number) =>
    `The file is uploaded: ${rows.toLocaleString("en-CA")} rows are being imported. The progress is shown under Import contacts; nothing is sent to anyone.`,
} as const;

export function loader() {
  return redirect("/dashboard/subscribers");
}

/** The file's text when it is a CSV (UTF-8 text, no NUL bytes), else null. */
async function csvText(file: File): Promise<string | null> {
  if (!/\.(csv|txt)$/i.test(file.name) && !/^text\//i.test(file.type)) return null;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
    return text.includes("\u0000") ? null : text;
  } catch {
    return null;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, IMPORT_MSG.failed);
  if (isRefusal(actor)) return actor;
  const back = async (tone: "success" | "error", text: string) =>
    redirect("/dashboard/subscribers#import-title", { headers: await flashHeaders({ tone, text }) });
  const limit = IMPORT_MAX_BYTES + 64 * 1024;
  if (Number(request.headers.get("content-length") ?? 0) > limit) return back("error", IMPORT_MSG.tooLarge);
  const form = await readForm(request, limit, IMPORT_MSG.tooLarge);
  if (isRefusal(form)) return back("error", (form.data as { status?: { text?: string } }).status?.text ?? IMPORT_MSG.unreadable);
  const file = uploadedFile(form, "file");
  if (!file) return back("error", IMPORT_MSG.noFile);
  const topics = [...new Set(formValues(form, ["topics"]).topics as string[])].filter(isTopic);
  if (!topics.length) return back("error", IMPORT_MSG.topics);
  if (file.size > IMPORT_MAX_BYTES) return back("error", IMPORT_MSG.tooLarge);
  const text = await csvText(file);
  if (text === null) return back("error", IMPORT_MSG.notCsv);
  const rows = parseCsv(text);
  const header = importHeader(rows[0] ?? []);
  if (!rows.length) return back("error", IMPORT_MSG.empty);
  if ("missing" in header) return back("error", header.missing);
  if (rows.length < 2) return back("error", IMPORT_MSG.empty);
  if (rows.length - 1 > IMPORT_MAX_ROWS) return back("error", IMPORT_MSG.tooMany);
  try {
    await createImport({ fileName: file.name, csv: text, topics, rowsTotal: rows.length - 1 }, actor);
  } catch (error) {
    log("error", "subscriber import could not be kept", { error: (error as Error).message.slice(0, 200) });
    return back("error", IMPORT_MSG.failed);
  }
  // Starts the job now rather than at its next turn (within 5 s); without a queue (tests) it waits for it.
  void context
    .get(servicesContext)
    .jobQueue?.boss.send("subscriber-import", null)
    .catch(() => {});
  return back("success", IMPORT_MSG.started(rows.length - 1));
}

/**
 * POST /dashboard/import/wordpress/upload (owners and admins): the Move from
 * WordPress page's script sends the export here as the request's body
 * (Content-Type application/xml), streamed to DATA_DIR/imports as it
 * arrives, never whole in memory; a dry run starts in the background and
 * the answer is its task's id as JSON (the page then follows it).
 */
import { randomUUID } from "node:crypto";
import { redirect } from "react-router";
import type { Route } from "./+types/wordpress-upload";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import { isRefusal } from "~/.server/http/form-post";
import { IMPORT_FAILED, saveUpload, startImportTask, UploadTooLarge } from "~/.server/wordpress/task";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "wordpress-import" } satisfies RouteHandle;

/** The largest export taken (far above the 200 MB of a big firm's export). */
export const MAX_STREAMED = 2 * 1024 * 1024 * 1024;
const TOO_LARGE = "The export is larger than 2 GB. Split it in WordPress (Tools → Export, by date range) and import each part.";

/** Nothing to show here: the upload is sent by the Move from WordPress page. */
export function loader() {
  return redirect("/dashboard/import/wordpress");
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, IMPORT_FAILED);
  if (isRefusal(actor)) return actor;
  const fail = (text: string, status = 400) => Response.json({ status: { tone: "error", text } }, { status });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_STREAMED) return fail(TOO_LARGE, 413);
  if (!/^(application|text)\/xml/.test(request.headers.get("content-type") ?? "") || !request.body) {
    return fail("Choose the export file (an .xml file from Tools → Export in WordPress).");
  }
  const upload = `${randomUUID()}.xml`;
  try {
    await saveUpload(request.body, upload, MAX_STREAMED);
  } catch (error) {
    if (error instanceof UploadTooLarge) return fail(TOO_LARGE, 413);
    return fail(`The file was not received: ${(error as Error).message}`);
  }
  const fileName = (request.headers.get("x-file-name") ?? "export.xml").slice(0, 200);
  const id = await startImportTask(
    { upload, fileName, dryRun: true, pages: "articles", defaultCategory: "insurance", categoryMap: {} },
    staffOf(context).email,
    actor,
  );
  return Response.json({ task: id });
}

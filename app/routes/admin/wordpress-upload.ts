/**
 * POST /dashboard/import/wordpress/upload (owners and admins): the Move from
 * WordPress page's script sends the export here as the request's body
 * (Content-Type application/xml), streamed to DATA_DIR/imports as it
 * arrives, never whole in memory; a dry run starts in the background and
 * the answer is its task's id as JSON (the page then follows it).
 */
import { randomUUID } from "node:crypto";
import type { Route } from "./+types/wordpress-upload";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import { isRefusal } from "~/.server/http/form-post";
import { saveUpload, startImportTask } from "~/.server/wordpress/task";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = { permission: "wordpress-import" } satisfies RouteHandle;

const MAX_STREAMED = 2 * 1024 * 1024 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(context, "The import could not be started.");
  if (isRefusal(actor)) return actor;
  const fail = (text: string) => Response.json({ status: { tone: "error", text } }, { status: 400 });
  if (!/^(application|text)\/xml/.test(request.headers.get("content-type") ?? "") || !request.body) {
    return fail("Choose the export file (an .xml file from Tools → Export in WordPress).");
  }
  const upload = `${randomUUID()}.xml`;
  try {
    await saveUpload(request.body, upload, MAX_STREAMED);
  } catch (error) {
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

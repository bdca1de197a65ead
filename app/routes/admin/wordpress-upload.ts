/**
 * POST /dashboard/import/wordpress/upload (owners and admins): the Move from
 * WordPress page's script sends the export here as the request's body
 * (Content-Type application/xml), streamed into the site's storage (the
 * bucket, or DATA_DIR) as it arrives, never whole in memory; a dry run is
 * queued with its own `wordpress-import` job and the answer is its id as
 * JSON (the page then follows it).
 */
import { redirect } from "react-router";
import type { Route } from "./+types/wordpress-upload";
import { actorOf, staffOf } from "~/.server/admin/guard.server";
import { isRefusal } from "~/.server/http/form-post";
import { servicesContext } from "~/.server/http/request-context";
import { log } from "~/.server/log";
import { StorageUnavailable } from "~/.server/storage/storage";
import { IMPORT_FAILED, queueFirstDryRun, STORAGE_DOWN, UploadTooLarge } from "~/.server/wordpress/task";
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
  let id: number;
  try {
    id = await queueFirstDryRun(
      { stream: request.body, name: request.headers.get("x-file-name") ?? "export.xml", maxBytes: MAX_STREAMED },
      actor,
      staffOf(context).email,
      context.get(servicesContext).jobQueue,
    );
  } catch (error) {
    if (error instanceof UploadTooLarge) return fail(TOO_LARGE, 413);
    if (error instanceof StorageUnavailable) {
      log("error", "wordpress export not stored", { error: error.message });
      return fail(STORAGE_DOWN, 503);
    }
    return fail(`The file was not received: ${(error as Error).message}`);
  }
  return Response.json({ task: id });
}

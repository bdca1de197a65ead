/**
 * The registrations screen's action (/dashboard/events/:id/registrations,
 * issue 45; permission "event-registrations"): mark who attended (and undo),
 * import the webinar platform's attendance CSV, and send the certificates of
 * attendance. Each answers with a status message in words: a redirect back
 * (the search and page kept) on success, 400 with the message when the
 * request or the file cannot be used; never a 500 for a bad file.
 */
import { data, redirect } from "react-router";
import { z } from "zod";
import { flashHeaders } from "~/.server/admin/flash.server";
import { actorOf } from "~/.server/admin/guard.server";
import { isRefusal, readForm, refuse, uploadedFile } from "~/.server/http/form-post";
import type { RequestContext } from "~/.server/http/request-context";
import { getEventById } from "~/.server/db/event-editing";
import { certificatesDue, importAttendance, setAttendance } from "~/.server/db/event-registrations";
import { requestCertificates } from "~/.server/events/certificate-job";
import { getJobQueue } from "~/.server/http/startup";
import { smtpConfigured } from "~/.server/mail/mail";
import { log } from "~/.server/log";
import { parseCsv } from "~/lib/csv";
import { formValues } from "~/lib/forms/form-data";
import { MSG } from "~/lib/forms/messages";

/** The attendance file may be this large (a platform's report of a few thousand attendees is far smaller). */
export const MAX_ATTENDANCE_BYTES = 2 * 1024 * 1024;
/** At most this many unmatched addresses are named in the answer (the rest are counted). */
const UNMATCHED_NAMED = 10;

export const REGISTRATIONS_MSG = {
  failed: "An error occurred: nothing was changed. Please try again later.",
  noEvent: "This event does not exist: it may have been deleted permanently. Nothing was changed.",
  notStarted: "Attendance can be marked once the event has started.",
  notEnded: "Certificates can be sent once the event has ended.",
  noneChosen: "Choose at least one person first (tick the box beside their name).",
  noFile: "Choose the attendance CSV file to import.",
  tooLarge: "The file is too large: an attendance file may be at most 2 MB.",
  unreadable: "The file could not be read as CSV. Export the attendance report from the webinar platform as a CSV file and try again.",
  noEmailColumn:
    "The file has no e-mail column: no column is headed “Email” (or “E-mail”, “User Email”, “Attendee Email”) and none holds e-mail addresses.",
  noAddresses: "The file's e-mail column holds no e-mail address.",
  noCertificates: "Nobody is waiting for a certificate: mark who attended first. Each attendee receives it once.",
  certificatesAlready: "The certificates are already being sent: their progress is shown under Certificates of attendance.",
} as const;

const address = z.email();
const EMAIL_HEADER = /^(?:.*\b)?e-?mail(?:\s*address)?$/i;

export type AttendanceFile = { addresses: string[]; skipped: number } | { error: string };

/**
 * The addresses of a webinar platform's attendance report: the column headed
 * like "Email" (Zoom's "User Email", Teams' "Email", Webex's "Attendee
 * Email"…), found in the first 30 rows (a report may begin with a summary);
 * without such a heading, the column holding addresses. Each address once,
 * lower-cased; rows without one are counted as skipped.
 */
export function attendanceAddresses(text: string): AttendanceFile {
  if (text.includes("\0")) return { error: REGISTRATIONS_MSG.unreadable };
  const rows = parseCsv(text);
  if (!rows.length) return { error: REGISTRATIONS_MSG.unreadable };
  let headerRow = -1;
  let column = -1;
  for (let r = 0; r < Math.min(rows.length, 30) && column < 0; r++) {
    const c = rows[r].findIndex((cell) => EMAIL_HEADER.test(cell.trim()));
    if (c >= 0) [headerRow, column] = [r, c];
  }
  if (column < 0) {
    // No heading: the column where most cells are addresses.
    const widest = Math.max(...rows.map((r) => r.length));
    let best = 0;
    for (let c = 0; c < widest; c++) {
      const n = rows.filter((r) => address.safeParse((r[c] ?? "").trim()).success).length;
      if (n > best) [best, column] = [n, c];
    }
    if (column < 0) return { error: REGISTRATIONS_MSG.noEmailColumn };
  }
  const seen = new Set<string>();
  let skipped = 0;
  for (const row of rows.slice(headerRow + 1)) {
    const cell = (row[column] ?? "").trim().toLowerCase();
    if (address.safeParse(cell).success) seen.add(cell);
    else skipped++;
  }
  if (!seen.size) return { error: REGISTRATIONS_MSG.noAddresses };
  return { addresses: [...seen], skipped };
}

/** "3 people" / "1 person". */
function people(n: number): string {
  return `${n} ${n === 1 ? "person" : "people"}`;
}

/** The import's answer in words: who was marked, who already was, and the addresses that match no registration. */
export function importReport(result: { marked: number; already: number; unmatched: string[] }, skipped: number): string {
  const parts = [`${people(result.marked)} marked as attended.`];
  if (result.already) parts.push(`${people(result.already)} ${result.already === 1 ? "was" : "were"} already marked.`);
  if (result.unmatched.length) {
    const named = result.unmatched.slice(0, UNMATCHED_NAMED).join(", ");
    const more = result.unmatched.length - UNMATCHED_NAMED;
    parts.push(
      `${result.unmatched.length} ${result.unmatched.length === 1 ? "address matches" : "addresses match"} no registration with a place (not registered, waiting or cancelled): ${named}${more > 0 ? ` and ${more} more` : ""}.`,
    );
  } else parts.push("Every address in the file matched a registration.");
  if (skipped)
    parts.push(`${skipped} ${skipped === 1 ? "row has" : "rows have"} no e-mail address and ${skipped === 1 ? "was" : "were"} skipped.`);
  return parts.join(" ");
}

export async function registrationsAction(request: Request, context: RequestContext, eventId: number | null) {
  const actor = actorOf(context, REGISTRATIONS_MSG.failed);
  if (isRefusal(actor)) return actor;
  const form = await readForm(request, MAX_ATTENDANCE_BYTES + 64 * 1024, REGISTRATIONS_MSG.tooLarge);
  if (isRefusal(form)) return form;
  const event = eventId ? await getEventById(eventId, { withTrashed: true }) : undefined;
  if (!event) return refuse(404, REGISTRATIONS_MSG.noEvent);
  const raw = formValues(form, ["id"]);
  // Back to the screen (its own path, not the request's: a script's post is to its `.data` address), with its search and page.
  const back = new URLSearchParams();
  for (const name of ["q", "status", "page"]) {
    const value = typeof raw[`back_${name}`] === "string" ? (raw[`back_${name}`] as string).slice(0, 200) : "";
    if (value) back.set(name, value);
  }
  const path = `/dashboard/events/${event.id}/registrations${back.size ? `?${back.toString()}` : ""}`;
  const done = async (text: string) => redirect(path, { headers: await flashHeaders({ tone: "success", text }) });
  const now = new Date();
  const intent = typeof raw.intent === "string" ? raw.intent : "";
  try {
    if (intent === "attend" || intent === "undo") {
      if (now < event.starts_at) return refuse(400, REGISTRATIONS_MSG.notStarted);
      const ids = (raw.id as string[]).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
      if (!ids.length) return refuse(400, REGISTRATIONS_MSG.noneChosen);
      const changed = await setAttendance(event, ids, intent === "attend", actor, now);
      return done(
        intent === "attend"
          ? `${people(changed.length)} marked as attended.`
          : `${people(changed.length)} no longer marked as attended (back to registered).`,
      );
    }
    if (intent === "import") {
      if (now < event.starts_at) return refuse(400, REGISTRATIONS_MSG.notStarted);
      const file = uploadedFile(form, "file");
      if (!file) return refuse(400, REGISTRATIONS_MSG.noFile);
      if (file.size > MAX_ATTENDANCE_BYTES) return refuse(413, REGISTRATIONS_MSG.tooLarge);
      const parsed = attendanceAddresses(new TextDecoder("utf-8", { fatal: false }).decode(await file.arrayBuffer()));
      if ("error" in parsed) return refuse(400, parsed.error);
      const result = await importAttendance(event, parsed.addresses, actor, now);
      return done(importReport(result, parsed.skipped));
    }
    if (intent === "certificates") {
      if (now < event.ends_at) return refuse(400, REGISTRATIONS_MSG.notEnded);
      const due = (await certificatesDue(event.id)).length;
      if (!due) return refuse(400, REGISTRATIONS_MSG.noCertificates);
      const queue = getJobQueue();
      if (!queue) throw new Error("The job queue is not running.");
      // On the job queue (events/certificate-job.ts): the answer comes at once, the screen follows the sending.
      if ((await requestCertificates(queue, event.id, actor, now)) === "already") return done(REGISTRATIONS_MSG.certificatesAlready);
      return done(
        `Sending certificates of attendance to ${people(due)}: the progress is shown under Certificates of attendance.${smtpConfigured() ? "" : " No e-mail server is set up, so they are kept in the Outbox."}`,
      );
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", "event registrations action failed", { intent, error: (error as Error).message.slice(0, 200) });
    return data({ status: { tone: "error" as const, text: REGISTRATIONS_MSG.failed } }, { status: 503 });
  }
  return refuse(400, MSG.unreadableForm);
}

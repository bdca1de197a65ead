/**
 * "Send certificates" on the job queue (issue 45): the registrations
 * screen's button sends one `event-certificates` job for the event
 * (`singletonKey` = the event, queue policy `exclusive`: while one is queued
 * or running, a second press adds nothing) and answers at once; the job
 * makes each attendee's PDF and sends it, CERTIFICATE_CHUNK at a time, and
 * the screen reads its progress (certificates sent since the request, of
 * those and the ones still due) from the job's state and the registrations.
 *
 * Each certificate goes once: a chunk's attendees are marked sent in the
 * statement that claims them, and their e-mails kept in the outbox in the
 * same transaction with the job that retries each (db/event-registrations.ts
 * `claimCertificates`; mail.ts `keepMail`). A try that fails (or an instance
 * killed mid-run) is retried by the queue: the next try sends only what is
 * still due, and an e-mail kept but not sent is sent by its `mail-send` job.
 */
import { z } from "zod";
import type { CertificateProgress } from "~/lib/certificate-progress";
import type { Actor } from "../db/audit";
import { getEventById } from "../db/event-editing";
import { certificatesDue, certificatesSentSince, claimCertificates } from "../db/event-registrations";
import type { JobQueue, TimedJob } from "../jobs/queue";
import { keepMail, sendKeptMail, type MailMessage } from "../mail/mail";
import { certificateMail } from "./certificate";

export const CERTIFICATES_JOB = "event-certificates";

/** Certificates made and claimed together: a PDF each, then one transaction; the progress moves a chunk at a time. */
export const CERTIFICATE_CHUNK = 5;

const jobData = z.object({
  eventId: z.number().int().positive(),
  requestedAt: z.iso.datetime(),
  actor: z.object({ userId: z.string().nullable(), label: z.string(), ip: z.string() }),
});
type JobData = z.infer<typeof jobData>;

/** Sends the event's job; "already": one is queued or running for it (the press adds nothing). */
export async function requestCertificates(queue: JobQueue, eventId: number, actor: Actor, now = new Date()): Promise<"queued" | "already"> {
  const data: JobData = { eventId, requestedAt: now.toISOString(), actor };
  const id = await queue.boss.send(CERTIFICATES_JOB, data, { singletonKey: String(eventId) });
  return id ? "queued" : "already";
}

/** One run of the job: every certificate still due, a chunk at a time. Returns what it did (the job's output). */
export async function runCertificates(raw: unknown): Promise<{ sent: number; deferred: number }> {
  const data = jobData.parse(raw);
  const event = await getEventById(data.eventId, { withTrashed: true });
  let sent = 0;
  let deferred = 0;
  if (!event) return { sent, deferred };
  for (;;) {
    const due = (await certificatesDue(event.id)).slice(0, CERTIFICATE_CHUNK);
    if (!due.length) break;
    const messages = new Map<number, MailMessage>();
    for (const r of due) messages.set(r.id, await certificateMail(event, r));
    const kept = await claimCertificates(event, [...messages.keys()], data.actor, async (tx, registration) => {
      const message = messages.get(registration.id)!;
      return { id: await keepMail(tx, message, { sendingNow: true }), message };
    });
    // Claimed by nobody: another run took them meanwhile (it cannot, with the queue's policy; then stop rather than loop).
    if (!kept.length) break;
    for (const { id, message } of kept) {
      const result = await sendKeptMail(id, message);
      if (result.status === "failed") deferred++;
    }
    sent += kept.length;
  }
  return { sent, deferred };
}

/** A run in words for Failed jobs: the event's title. */
async function describeCertificatesJob(raw: unknown): Promise<string | null> {
  const parsed = jobData.safeParse(raw);
  if (!parsed.success) return null;
  const event = await getEventById(parsed.data.eventId, { withTrashed: true });
  return event ? `For “${event.title}”` : null;
}

/** The queue's entry for it (jobs.ts): only when sent, one per event at a time. */
export const certificatesJob: TimedJob = {
  name: CERTIFICATES_JOB,
  label: "Sending certificates",
  describe: describeCertificatesJob,
  policy: "exclusive",
  expireInSeconds: 30 * 60,
  run: (data) => runCertificates(data),
};

/** The words for a try's error kept by the queue. */
function errorText(output: unknown): string {
  const message = (output as { message?: unknown } | null)?.message;
  const detail = typeof message === "string" && message ? message.slice(0, 300) : "";
  if (/expired|heartbeat/i.test(detail)) return "the server stopped while sending.";
  return detail ? `an error occurred (${detail.replace(/\.$/, "")}).` : "an error occurred.";
}

/** The last request's progress for the event (null: never requested, or no queue). */
export async function certificateProgress(queue: JobQueue | undefined, eventId: number): Promise<CertificateProgress | null> {
  if (!queue) return null;
  const jobs = await queue.boss.findJobs(CERTIFICATES_JOB, { key: String(eventId) });
  const job = jobs.filter((j) => j.state !== "cancelled").sort((a, b) => b.createdOn.getTime() - a.createdOn.getTime())[0];
  if (!job) return null;
  const parsed = jobData.safeParse(job.data);
  if (!parsed.success) return null;
  const since = new Date(parsed.data.requestedAt);
  const [sent, due] = await Promise.all([certificatesSentSince(eventId, since), certificatesDue(eventId)]);
  const status: CertificateProgress["status"] =
    job.state === "created"
      ? "queued"
      : job.state === "active"
        ? "running"
        : job.state === "retry"
          ? "retrying"
          : job.state === "completed"
            ? "done"
            : "failed";
  const output = (job.output ?? {}) as { deferred?: unknown };
  return {
    jobId: job.id,
    status,
    sent,
    total: sent + due.length,
    deferred: status === "done" && typeof output.deferred === "number" ? output.deferred : 0,
    error: status === "retrying" || status === "failed" ? errorText(job.output) : "",
  };
}

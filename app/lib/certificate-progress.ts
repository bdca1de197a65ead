/**
 * The sending of an event's certificates of attendance as the registrations
 * screen shows it (its loader and the progress resource): the last request's
 * state on the job queue, how many of its certificates went, and the error
 * in words when a try failed.
 */

export type CertificateProgress = {
  /** The request's job (a new press is a new job). */
  jobId: string;
  /** queued: not started; running; retrying: a try failed, another comes; done; failed: no try left. */
  status: "queued" | "running" | "retrying" | "done" | "failed";
  /** Certificates sent since the request. */
  sent: number;
  /** Those and the ones still due. */
  total: number;
  /** Kept to be sent again by the Outbox (the e-mail server did not take them). */
  deferred: number;
  /** The last try's error, in words ("" when none). */
  error: string;
};

const people = (n: number) => `${n.toLocaleString("en-CA")} ${n === 1 ? "person" : "people"}`;

export function certificateProgressText(p: CertificateProgress): string {
  const counts = `${p.sent.toLocaleString("en-CA")} of ${p.total.toLocaleString("en-CA")}`;
  if (p.status === "queued") return `Sending certificates: waiting to start (${p.total.toLocaleString("en-CA")} to send).`;
  if (p.status === "running") return `Sending certificates: ${counts}.`;
  if (p.status === "retrying")
    return `Sending certificates: ${counts}. A try failed: ${p.error} It is tried again automatically in a minute or so; nobody receives theirs twice.`;
  if (p.status === "failed")
    return `Sending certificates stopped after ${counts}: ${p.error} Press Send certificates to send the rest; nobody receives theirs twice.`;
  if (!p.deferred) return `Certificates of attendance sent to ${people(p.sent)}.`;
  return `Certificates of attendance sent to ${people(p.sent - p.deferred)}. The e-mail server did not take ${p.deferred.toLocaleString("en-CA")} more yet: the Outbox tries again, and each goes once.`;
}

export const certificateSending = (p: CertificateProgress | null) =>
  !!p && (p.status === "queued" || p.status === "running" || p.status === "retrying");

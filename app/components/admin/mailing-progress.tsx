/** A mailing's progress in words: waiting for publication; queued; sent n of N; failed m (issue 31). */
import type { MailingProgress } from "~/.server/db/mailings";
import { topicList } from "~/lib/forms/subscribe";

export function mailingProgressText(
  p: Pick<MailingProgress, "status" | "topics" | "total" | "sent" | "failed" | "skipped" | "waiting">,
): string {
  const topics = topicList(p.topics);
  if (p.status === "scheduled") return `Set to go to subscribers of ${topics} when the article is published.`;
  const parts = [`Sent ${p.sent} of ${p.total}`, `failed ${p.failed}`];
  if (p.skipped) parts.push(`skipped ${p.skipped} (unsubscribed since)`);
  if (p.status === "done") return `Sent to subscribers of ${topics}: ${parts.join("; ")}.`;
  return `Queued for subscribers of ${topics}: ${parts.join("; ")}.`;
}

export function MailingProgressText({ progress }: { progress: Parameters<typeof mailingProgressText>[0] }) {
  return <span>{mailingProgressText(progress)}</span>;
}

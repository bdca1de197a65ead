/** A mailing's progress in words: waiting for publication; queued; sent n of N; failed m (issue 31). */
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { topicList } from "~/lib/forms/subscribe";
import type { MailingProgress } from "~/lib/mailings";

type Progress = Pick<MailingProgress, "status" | "topics" | "total" | "sent" | "failed" | "skipped" | "waiting">;

/** While a mailing goes out, its screens read its progress again this often. */
export const PROGRESS_REFRESH_MS = 3000;

export function mailingProgressText(p: Progress): string {
  const topics = topicList(p.topics);
  if (p.status === "scheduled") return `Set to go to subscribers of ${topics} when the article is published.`;
  const parts = [`Sent ${p.sent} of ${p.total}`, `failed ${p.failed}`];
  if (p.skipped) parts.push(`skipped ${p.skipped} (unsubscribed since)`);
  if (p.status === "done") return `Sent to subscribers of ${topics}: ${parts.join("; ")}.`;
  return `Queued for subscribers of ${topics}: ${parts.join("; ")}.`;
}

/**
 * The progress, kept current without a reload while the mailing is going out
 * or about to (its article is public): read from
 * /dashboard/articles/:id/mailing/progress every PROGRESS_REFRESH_MS. The
 * counts change quietly; a screen reader hears once, when it is done, that
 * the mailing has gone out.
 */
export function MailingProgressText({
  articleId,
  progress: initial,
  articlePublic,
}: {
  articleId: number;
  progress: Progress;
  articlePublic: boolean;
}) {
  const fetcher = useFetcher<{ progress: Progress | null }>();
  const progress = fetcher.data?.progress ?? initial;
  const going = progress.status === "queued" || (progress.status === "scheduled" && articlePublic);
  const { load } = fetcher;
  useEffect(() => {
    if (!going) return;
    const timer = setInterval(() => void load(`/dashboard/articles/${articleId}/mailing/progress`), PROGRESS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [going, load, articleId]);
  return (
    <>
      <span data-mailing-progress={progress.status}>{mailingProgressText(progress)}</span>
      <span role="status" className="sr-only">
        {fetcher.data && progress.status === "done" ? mailingProgressText(progress) : ""}
      </span>
    </>
  );
}

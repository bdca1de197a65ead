/**
 * The one retry policy of the site's work (issue 44): every queue of the job
 * queue (pg-boss's retry limit and backoff, queue.ts), among them each
 * mailing delivery's and each Outbox message's job, is tried at most
 * MAX_ATTEMPTS times, 30 s, 1, 2, 4 … minutes apart, never more than 30
 * minutes. pg-boss adds jitter to its delays; `retryDelayMs` is the earliest
 * next try the Outbox screen shows.
 */

/** pg-boss's options for it (seconds). */
export const RETRY = { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 30 * 60 } as const;

/** Attempts in all: the first and RETRY.retryLimit retries. */
export const MAX_ATTEMPTS = RETRY.retryLimit + 1;

/** The delay before attempt `attempts + 1`: 30 s doubling, at most 30 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY.retryDelayMax, RETRY.retryDelay * 2 ** Math.max(0, attempts - 1)) * 1000;
}

/**
 * The progress of work done by the job queue, as a dashboard screen follows
 * it (a subscriber import, an event's certificates): the page's loader gives
 * the state when the page was read (so a reload shows it without
 * JavaScript); while the work goes on, the hydrated screen reads `url` (a
 * resource route answering the same state) every PROGRESS_REFRESH_MS, and
 * once it finished on the open screen, the page's data is read again.
 */
import { useEffect } from "react";
import { useFetcher, useRevalidator } from "react-router";

export const PROGRESS_REFRESH_MS = 1500;

export function useProgress<D, T>(options: {
  /** The state the page's loader gave. */
  initial: T;
  /** The resource route answering the latest state. */
  url: string;
  /** The state out of the resource's answer; undefined when it is about other work (then `initial` stands). */
  select: (data: D) => T | undefined;
  /** Whether the work is still going (queued or running). */
  going: (state: T) => boolean;
}): { current: T; going: boolean; finishedHere: boolean } {
  const { initial, url, select, going: isGoing } = options;
  const fetcher = useFetcher();
  // The resource answers plain data (numbers, strings), the same through the wire.
  const data = fetcher.data as D | undefined;
  const current = (data !== undefined ? select(data) : undefined) ?? initial;
  const going = isGoing(current);
  const { load } = fetcher;
  const { revalidate } = useRevalidator();
  const finishedHere = data !== undefined && !going;
  useEffect(() => {
    if (!going) return;
    const timer = setInterval(() => void load(url), PROGRESS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [going, load, url]);
  // Finished while the screen was open: the page's counts and lists are read again.
  useEffect(() => {
    if (finishedHere) void revalidate();
  }, [finishedHere, revalidate]);
  return { current, going, finishedHere };
}

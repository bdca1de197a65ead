/**
 * What a screen following queued work (use-progress.ts) shows of it: the
 * state in words, a progress bar while it goes, and the same words announced
 * once when it finished on the open screen. Used by the Subscribers import and
 * an event's certificates.
 */
export function ProgressLines(props: {
  /** What useProgress says of the work. */
  progress: { going: boolean; finishedHere: boolean };
  /** The state in words. */
  text: string;
  /** The bar while the work goes: how much of the total is done, and its accessible name ("Rows read"). */
  bar: { done: number; total: number; label: string };
  error?: boolean;
}) {
  const { progress, bar } = props;
  return (
    <>
      <p className={props.error ? "mt-1 text-error" : "mt-1"}>{props.text}</p>
      {progress.going ? <progress className="mt-2 w-full" max={Math.max(1, bar.total)} value={bar.done} aria-label={bar.label} /> : null}
      <p role="status" className="sr-only">
        {progress.finishedHere ? props.text : ""}
      </p>
    </>
  );
}

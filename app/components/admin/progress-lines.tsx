/**
 * What a screen following queued work (use-progress.ts) shows of it: the
 * state in words, a progress bar while it goes, and the same words announced
 * once when it finished on the open screen. Used by the Subscribers import and
 * an event's certificates.
 */
export function ProgressLines(props: {
  /** The state in words. */
  text: string;
  going: boolean;
  finishedHere: boolean;
  done: number;
  total: number;
  /** The bar's accessible name ("Rows read"). */
  label: string;
  error?: boolean;
}) {
  return (
    <>
      <p className={props.error ? "mt-1 text-error" : "mt-1"}>{props.text}</p>
      {props.going ? <progress className="mt-2 w-full" max={Math.max(1, props.total)} value={props.done} aria-label={props.label} /> : null}
      <p role="status" className="sr-only">
        {props.finishedHere ? props.text : ""}
      </p>
    </>
  );
}

import { useCallback, useState } from "react";

/**
 * The open state of a native modal <dialog> rendered by React: the open
 * dialog's number (null: none), used as its `key`. Each opening is a new
 * dialog element: a native dialog's "close" event comes a moment after it
 * closes (Escape, Cancel), and an opening in between must not be lost nor be
 * closed by that late event. Used by the delete confirmation and the editor's
 * "Insert picture".
 */
export function useDialogOpenings() {
  const [opening, setOpening] = useState<number | null>(null);
  const open = useCallback(() => setOpening((n) => (n ?? 0) + 1), []);
  const close = useCallback(() => setOpening(null), []);
  return { opening, open, close };
}

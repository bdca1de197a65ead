import { useSyncExternalStore } from "react";

const nothingToWatch = () => () => {};

/**
 * A value only the browser knows (`read` runs in the browser), and
 * `serverValue` in the server's render and during hydration, so the two
 * renders match and the browser's value follows at once.
 */
export function useBrowserValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(nothingToWatch, read, () => serverValue);
}

/** False during the server render and hydration, true after: enhanced widgets switch on without a mismatch. */
export function useHydrated(): boolean {
  return useBrowserValue(() => true, false);
}

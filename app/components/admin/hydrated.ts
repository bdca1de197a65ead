import { useEffect, useState } from "react";

/** False during the server render and hydration, true after: enhanced widgets switch on without a mismatch. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

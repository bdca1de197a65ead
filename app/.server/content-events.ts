/**
 * Every content write (team, articles, headers, hours) announces itself here,
 * so caches of public pages can be cleared.
 */
type Listener = (what: string) => void;
const holder = globalThis as unknown as { __contentListeners?: Set<Listener> };
const listeners = (holder.__contentListeners ??= new Set());

export function onContentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function contentChanged(what: string) {
  for (const listener of listeners) {
    try {
      listener(what);
    } catch (error) {
      console.error(error);
    }
  }
}

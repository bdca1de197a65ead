/**
 * Every content write (team, articles, headers, hours) announces itself here,
 * so caches of public pages can be cleared. `remote` marks a change heard
 * from another server process (content-sync.ts), which is not passed on again.
 */
type Listener = (what: string, remote: boolean) => void;
const holder = globalThis as unknown as { __contentListeners?: Set<Listener> };
const listeners = (holder.__contentListeners ??= new Set());

export function onContentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function contentChanged(what: string, remote = false) {
  for (const listener of listeners) {
    try {
      listener(what, remote);
    } catch (error) {
      console.error(error);
    }
  }
}

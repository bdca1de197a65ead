/**
 * Every content write (team, articles, headers, hours) announces itself here,
 * so caches of public pages can be cleared. `remote` marks a change heard
 * from another server process (content-sync.ts), which is not passed on again.
 * The listeners are kept in the process's services (services.ts).
 */
import { processServices, type ContentListener } from "../services";

export function onContentChange(listener: ContentListener): () => void {
  const listeners = processServices().contentListeners;
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function contentChanged(what: string, remote = false) {
  for (const listener of processServices().contentListeners) {
    try {
      listener(what, remote);
    } catch (error) {
      console.error(error);
    }
  }
}

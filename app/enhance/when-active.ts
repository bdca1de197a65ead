/** Prerendered pages (Speculation Rules) run their code before the visitor sees them: some work waits for that. */
export function whenActive(run: () => void): void {
  if ((document as Document & { prerendering?: boolean }).prerendering) {
    document.addEventListener("prerenderingchange", run, { once: true });
  } else {
    run();
  }
}

/** True for clicks the browser should handle itself (new tab, new window, download…). */
export function isModifiedClick(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/** The closest element matching `selector` from an event's target. */
export function closestFrom<T extends Element>(event: Event, selector: string): T | null {
  const target = event.target;
  return target instanceof Element ? target.closest<T>(selector) : null;
}

/** A value kept across one page load (sessionStorage), read once; null after 10 s or when storage is off. */
export const handover = {
  set(key: string, value: Record<string, string>) {
    try {
      sessionStorage.setItem(key, JSON.stringify({ ...value, at: Date.now() }));
      return true;
    } catch {
      return false;
    }
  },
  take(key: string): Record<string, string> | null {
    try {
      const raw = sessionStorage.getItem(key);
      if (raw === null) return null;
      sessionStorage.removeItem(key);
      const value = JSON.parse(raw) as Record<string, string> & { at: number };
      return Date.now() - value.at < 10_000 ? value : null;
    } catch {
      return null;
    }
  },
};

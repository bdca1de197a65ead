/**
 * The team directory's filters (issue 33; components/public/team-directory.tsx).
 * Without JavaScript the form is a plain GET form. Here each choice (a select
 * changed, the name typed, a pause of 250 ms) fetches the filtered page —
 * usually a page-cache hit — and swaps in its list, its count (a polite
 * status region, so the new count is announced), the folded "Filter"
 * control's count of active filters and its "Clear filters" link; the
 * address follows (replaceState), so a reload or a shared link shows the
 * same view. "Clear filters" empties the form the same way. A
 * failed fetch falls back to loading the page.
 */
import { isModifiedClick } from "./when-active";

const PARTS = ["[data-team-results]", "[data-team-count]", "[data-team-clear-slot]", "[data-team-active-count]"];

export function enhanceTeamFilters(): void {
  const form = document.querySelector<HTMLFormElement>("[data-team-filters]");
  if (!form) return;
  let latest = 0;
  let timer = 0;
  let controller: AbortController | undefined;

  const update = async () => {
    const url = new URL(form.action);
    for (const [name, value] of new FormData(form))
      if (typeof value === "string" && value.trim()) url.searchParams.append(name, value.trim());
    const ticket = ++latest;
    controller?.abort();
    controller = new AbortController();
    try {
      const response = await fetch(url, { signal: controller.signal });
      if (!response.ok) throw new Error(String(response.status));
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      if (ticket !== latest) return;
      for (const selector of PARTS) {
        const next = page.querySelector(selector);
        const here = document.querySelector(selector);
        if (next && here) here.innerHTML = next.innerHTML;
      }
      document.title = page.title;
      history.replaceState(history.state, "", url);
    } catch (error) {
      if ((error as Error).name !== "AbortError") location.assign(url);
    }
  };

  form.addEventListener("change", (event) => {
    if ((event.target as Element).matches("select")) void update();
  });
  form.addEventListener("input", (event) => {
    if (!(event.target as Element).matches("input[type=search]")) return;
    clearTimeout(timer);
    timer = window.setTimeout(() => void update(), 250);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    void update();
  });
  // Capture: before the loading text's listener (loading-status.ts), which leaves a link whose click was taken alone.
  document.addEventListener(
    "click",
    (event) => {
      const clear = (event.target as Element).closest?.("a[data-team-clear]");
      if (!clear || isModifiedClick(event)) return;
      event.preventDefault();
      for (const field of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("select, input[type=search]")) field.value = "";
      void update();
      form.querySelector<HTMLElement>("select, input[type=search]")?.focus();
    },
    true,
  );
}

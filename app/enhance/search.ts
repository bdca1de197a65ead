/**
 * The header's search box. Without JavaScript the header holds a link to
 * `/search` (`data-search-link`); here a disclosure button takes its place
 * and opens the box under the bar (`data-search-box`, a plain GET form to
 * `/search`), moving the focus into it; Escape closes it and returns the
 * focus to the button. On `/search` itself the page's own form is the box:
 * the button moves the focus there instead.
 */
export function enhanceSearch(onOpen: () => void): void {
  const link = document.querySelector<HTMLElement>("[data-search-link]");
  const button = document.querySelector<HTMLButtonElement>("[data-search-button]");
  const box = document.querySelector<HTMLFormElement>("[data-search-box]");
  if (!link || !button || !box) return;
  const input = box.querySelector<HTMLInputElement>("input[name=q]");
  link.hidden = true;
  button.hidden = false;
  const setOpen = (open: boolean) => {
    box.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => {
    const pageInput = document.querySelector<HTMLInputElement>("[data-search-page] input[name=q]");
    if (pageInput) {
      pageInput.focus();
      pageInput.select();
      return;
    }
    const open = box.hidden;
    setOpen(open);
    if (open) {
      onOpen();
      input?.focus();
    }
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      setOpen(false);
      button.focus();
    }
  });
  // Back to a page kept in memory (back/forward cache): the box is closed again.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) setOpen(false);
  });
}

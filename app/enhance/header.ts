/**
 * The navigation: solid after more than 5 px of scroll on home (always solid
 * elsewhere, rendered so by the server), and the hamburger menu below `lg`.
 * Without JavaScript the menu opens through a link to `#mobile-menu`
 * (`:target`); here the disclosure button takes its place: it opens and
 * closes the menu, a link click closes it, Escape closes it and returns the
 * focus to the button. The menu follows the button in the focus order.
 */
import { NAV_SOLID_AFTER_PX } from "~/lib/scroll";
import { closestFrom } from "./when-active";

export type MenuControl = { close(): void };

export function enhanceHeader(): MenuControl {
  const header = document.querySelector<HTMLElement>("[data-site-header]");
  const menu = document.getElementById("mobile-menu");
  const button = header?.querySelector<HTMLButtonElement>("[data-menu-button]");
  const fallback = header?.querySelector<HTMLElement>("[data-menu-link]");
  if (!header) return { close() {} };
  const isHome = header.dataset.home === "true";
  let open = false;
  let scrolled = false;

  const render = () => {
    header.dataset.scrolled = String(scrolled);
    header.dataset.solid = String(!isHome || scrolled || open);
    button?.setAttribute("aria-expanded", String(open));
    if (menu) menu.toggleAttribute("data-open", open);
  };
  const setOpen = (value: boolean) => {
    if (value === open) return;
    open = value;
    render();
  };

  if (isHome) {
    const onScroll = () => {
      const now = window.scrollY > NAV_SOLID_AFTER_PX;
      if (now !== scrolled) {
        scrolled = now;
        render();
      }
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    // A page opened scrolled (a reload): read in the first frame, where the layout is made anyway;
    // reading scrollY now would force it inside this script's task.
    requestAnimationFrame(onScroll);
  }

  if (button && menu) {
    if (fallback) fallback.hidden = true;
    button.hidden = false;
    // Opened through its link before this code ran: it stays open.
    if (location.hash === "#mobile-menu") open = true;
    button.addEventListener("click", () => setOpen(!open));
    menu.addEventListener("click", (event) => {
      if (closestFrom(event, "a")) setOpen(false);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && open) {
        setOpen(false);
        button.focus();
      }
    });
    // Back to a page kept in memory (back/forward cache): the menu is closed again.
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) setOpen(false);
    });
  }
  render();
  return { close: () => setOpen(false) };
}

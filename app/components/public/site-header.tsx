import { Menu, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { FIRM } from "~/config/firm";
import { NAV_SOLID_AFTER_PX, SCROLL_MS } from "~/lib/scroll";
import { MAIN_NAV, MOBILE_EXTRA, type NavItem } from "./nav-items";
import { SectionLink } from "./section-link";
import { isModifiedClick, useSectionScroll } from "./scrolling";

export type TopBarInfo = { hoursText: string };

const MENU_TOGGLE = "-mr-2 inline-flex h-11 w-11 items-center justify-center rounded lg:hidden";

/**
 * The top navigation. Over the home hero it is transparent until the page is
 * scrolled more than 5 px; on every other page it is solid. Before hydration
 * the home header is positioned absolutely (it scrolls away with the hero),
 * afterwards it is fixed. Below `lg` a disclosure button opens the menu;
 * until the code has run, a link to the menu opens it through `:target`.
 */
export function SiteHeader({ isHome, topBar }: { isHome: boolean; topBar?: TopBarInfo }) {
  const [open, setOpen] = useState(false);
  const [scrolled, setScrolled] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const location = useLocation();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const go = useSectionScroll();

  useEffect(() => {
    setHydrated(true);
    const onScroll = () => setScrolled(window.scrollY > NAV_SOLID_AFTER_PX);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  // A new page closes the menu.
  useEffect(() => setOpen(false), [location.pathname, location.search]);
  // Opened by its link before the code ran: stays open (after the line above, which also runs first).
  useEffect(() => {
    if (window.location.hash === "#mobile-menu") setOpen(true);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const solid = !isHome || scrolled || open;
  const position = isHome ? (hydrated ? "fixed" : "absolute") : "sticky";
  const close = () => setOpen(false);

  return (
    <header
      data-solid={solid ? "true" : "false"}
      className={`on-dark top-0 right-0 left-0 z-40 text-white transition-colors duration-300 ${position} ${
        solid ? "bg-ink shadow-[0_1px_0_rgba(255,255,255,0.08)]" : "max-lg:bg-ink/90 lg:bg-transparent"
      }`}
    >
      {isHome && topBar && !scrolled ? (
        <div className="border-b border-white/15 bg-ink">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-6 gap-y-1 px-5 py-2 text-[0.8125rem] sm:justify-end lg:px-8">
            <a className="hover:underline" href={`tel:${FIRM.phoneE164}`}>
              <span className="sr-only">Telephone: </span>
              {FIRM.phone}
            </a>
            <a className="hover:underline" href={`mailto:${FIRM.email}`}>
              <span className="sr-only">E-mail: </span>
              {FIRM.email}
            </a>
            <span>{topBar.hoursText}</span>
          </div>
        </div>
      ) : null}
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center justify-between gap-6 px-5 py-4 lg:px-8">
        <Link
          to="/"
          className="group flex items-baseline gap-2 leading-none"
          onClick={(event) => {
            if (isModifiedClick(event)) return;
            close();
            if (location.pathname === "/") {
              event.preventDefault();
              void go(null, SCROLL_MS);
            }
          }}
        >
          <span className="font-serif text-[1.375rem] font-semibold tracking-tight">{FIRM.shortName}</span>{" "}
          <span className="text-[0.7rem] font-semibold tracking-[0.2em] text-brass-light">LLP</span>
          <span className="sr-only"> home page</span>
        </Link>
        <ul className="hidden items-center gap-7 lg:flex">
          {MAIN_NAV.map((item) => (
            <li key={item.label}>
              <NavEntry item={item} className="nav-link text-[0.8125rem] font-medium tracking-[0.12em] uppercase" />
            </li>
          ))}
        </ul>
        {hydrated ? (
          <button
            ref={buttonRef}
            type="button"
            className={MENU_TOGGLE}
            aria-expanded={open}
            aria-controls="mobile-menu"
            aria-label="Menu"
            onClick={() => setOpen((v) => !v)}
          >
            {open ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
          </button>
        ) : (
          // Before the page's code has run (a slow phone) or without JavaScript: a link that shows the menu (:target).
          <a href="#mobile-menu" className={MENU_TOGGLE} aria-label="Menu">
            <Menu aria-hidden="true" className="h-6 w-6" />
          </a>
        )}
      </nav>
      <div
        id="mobile-menu"
        hidden={hydrated ? !open : undefined}
        className={`${hydrated ? "" : "hidden max-lg:target:block "}max-h-[calc(100svh-4.75rem)] overflow-y-auto overscroll-contain border-t border-white/15 bg-ink lg:hidden`}
      >
        <ul className="mx-auto max-w-7xl px-5 py-3">
          {[...MAIN_NAV, ...MOBILE_EXTRA].map((item) => (
            <li key={item.label}>
              <NavEntry
                item={item}
                onNavigate={close}
                className="block border-b border-white/10 py-3 text-sm font-medium tracking-[0.12em] uppercase"
              />
            </li>
          ))}
        </ul>
      </div>
    </header>
  );
}

/** One navigation entry: a page link (aria-current on its page) or a section link. */
export function NavEntry({ item, className, onNavigate }: { item: NavItem; className?: string; onNavigate?: () => void }) {
  if (item.section) {
    return (
      <SectionLink section={item.section} className={className} onNavigate={onNavigate}>
        {item.label}
      </SectionLink>
    );
  }
  return (
    <NavLink to={item.to!} end className={className} onClick={onNavigate}>
      {item.label}
    </NavLink>
  );
}

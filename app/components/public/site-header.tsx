import { Menu, Search, X } from "lucide-react";
import { FIRM } from "~/config/firm";
import { MAIN_NAV, MOBILE_EXTRA, type NavItem } from "./nav-items";
import { SectionLink } from "./section-link";

export type TopBarInfo = { hoursText: string };

const MENU_TOGGLE = "-mr-2 inline-flex h-11 w-11 items-center justify-center rounded lg:hidden";
const SEARCH_TOGGLE = "inline-flex h-11 w-11 shrink-0 items-center justify-center rounded lg:-mr-2";

/**
 * The top navigation (server-rendered; its behaviour is in app/enhance/header.ts).
 *
 * It stands on the ink ground the home hero starts with, so over the hero it
 * reads as part of it and its text is measured against its own ground
 * (WCAG contrast); once the page is scrolled more than 5 px, and on every
 * other page, it is a solid bar with a rule under it (`data-solid`). On
 * home it is positioned absolutely (it scrolls away with the hero) until the
 * enhancement module fixes it to the top. Below `lg` the menu opens from a
 * link to `#mobile-menu` (`:target`) without JavaScript, from a disclosure
 * button with it.
 *
 * Search: a link to `/search` (the page with the full form) without
 * JavaScript; with it (app/enhance/search.ts) a button that opens the search
 * box under the bar (`data-search-box`), Escape closing it.
 */
export function SiteHeader({ isHome, currentPath, topBar }: { isHome: boolean; currentPath: string; topBar?: TopBarInfo }) {
  return (
    <header data-site-header="" data-home={String(isHome)} data-scrolled="false" data-solid={String(!isHome)} className="site-header on-dark z-40 bg-ink text-white">
      {isHome && topBar ? (
        <div data-top-bar="" className="border-b border-white/15 bg-ink">
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
        <a href="/" data-section="top" className="group flex items-baseline gap-2 leading-none">
          <span className="font-serif text-[1.375rem] font-semibold tracking-tight">{FIRM.shortName}</span>{" "}
          <span className="text-[0.7rem] font-semibold tracking-[0.2em] text-brass-light">LLP</span>
          <span className="sr-only"> home page</span>
        </a>
        <ul className="hidden items-center gap-7 lg:flex">
          {MAIN_NAV.map((item) => (
            <li key={item.label}>
              <NavEntry item={item} currentPath={currentPath} className="nav-link text-[0.8125rem] font-medium tracking-[0.12em] uppercase" />
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-1 lg:ml-0">
        {/* Without JavaScript (or before it runs): a link to the search page. */}
        <a href="/search" data-search-link="" className={SEARCH_TOGGLE} aria-label="Search" aria-current={currentPath === "/search" ? "page" : undefined}>
          <Search aria-hidden="true" className="h-5 w-5" />
        </a>
        <button type="button" hidden data-search-button="" className={`group ${SEARCH_TOGGLE}`} aria-expanded="false" aria-controls="header-search" aria-label="Search">
          <Search aria-hidden="true" className="h-5 w-5 group-aria-expanded:hidden" />
          <X aria-hidden="true" className="hidden h-5 w-5 group-aria-expanded:block" />
        </button>
        {/* Without JavaScript (or before it runs): a link that shows the menu through :target. */}
        <a href="#mobile-menu" data-menu-link="" className={MENU_TOGGLE} aria-label="Menu">
          <Menu aria-hidden="true" className="h-6 w-6" />
        </a>
        <button
          type="button"
          hidden
          data-menu-button=""
          className={`group ${MENU_TOGGLE}`}
          aria-expanded="false"
          aria-controls="mobile-menu"
          aria-label="Menu"
        >
          <Menu aria-hidden="true" className="h-6 w-6 group-aria-expanded:hidden" />
          <X aria-hidden="true" className="hidden h-6 w-6 group-aria-expanded:block" />
        </button>
        </div>
      </nav>
      <form id="header-search" data-search-box="" hidden method="get" action="/search" role="search" aria-label="Site" className="border-t border-white/15 bg-ink">
        <div className="mx-auto flex max-w-7xl items-end gap-3 px-5 py-3 lg:px-8">
          <div className="min-w-0 flex-1">
            <label htmlFor="header-search-q" className="block text-xs font-semibold tracking-[0.12em] text-white/85 uppercase">
              Search the site
            </label>
            <input
              id="header-search-q"
              type="search"
              name="q"
              maxLength={200}
              autoComplete="off"
              enterKeyHint="search"
              className="mt-1 h-11 w-full rounded border border-white/40 bg-white px-3 text-base text-ink"
            />
          </div>
          <button type="submit" className="h-11 shrink-0 rounded bg-brass-light px-4 text-sm font-semibold tracking-[0.12em] text-ink uppercase">
            Go
          </button>
        </div>
      </form>
      <div id="mobile-menu" data-menu="" className="max-h-[calc(100svh-4.75rem)] overflow-y-auto overscroll-contain border-t border-white/15 bg-ink">
        <ul className="mx-auto max-w-7xl px-5 py-3">
          {[...MAIN_NAV, ...MOBILE_EXTRA].map((item) => (
            <li key={item.label}>
              <NavEntry item={item} currentPath={currentPath} className="block border-b border-white/10 py-3 text-sm font-medium tracking-[0.12em] uppercase" />
            </li>
          ))}
        </ul>
      </div>
    </header>
  );
}

/** One navigation entry: a page link (aria-current on its page) or a section link. */
export function NavEntry({ item, className, currentPath }: { item: NavItem; className?: string; currentPath: string }) {
  if (item.section) {
    return (
      <SectionLink section={item.section} className={className}>
        {item.label}
      </SectionLink>
    );
  }
  return (
    <a href={item.to} className={className} aria-current={item.to === currentPath ? "page" : undefined}>
      {item.label}
    </a>
  );
}

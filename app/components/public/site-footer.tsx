import { FIRM, fullAddress } from "~/config/firm";
import { FOOTER_COLUMNS } from "./nav-items";
import { NavEntry } from "./site-header";

export function SiteFooter({ year, currentPath }: { year: number; currentPath: string }) {
  return (
    <footer className="on-dark bg-ink text-white">
      <div className="mx-auto grid max-w-7xl gap-12 px-5 py-16 lg:grid-cols-[1.4fr_repeat(3,1fr)] lg:px-8">
        <div>
          <p className="font-serif text-2xl font-semibold">{FIRM.name}</p>
          <address className="mt-4 text-sm leading-6 not-italic text-white/85">
            {fullAddress()}
            <br />
            <a className="hover:underline" href={`tel:${FIRM.phoneE164}`}>
              T {FIRM.phone}
            </a>
            <br />
            <a className="hover:underline" href={`mailto:${FIRM.email}`}>
              {FIRM.email}
            </a>
          </address>
        </div>
        {FOOTER_COLUMNS.map((column) => (
          <nav key={column.heading} aria-label={`Footer: ${column.heading}`}>
            <h2 className="font-sans text-xs font-semibold tracking-[0.2em] text-brass-light uppercase">{column.heading}</h2>
            <ul className="mt-4 space-y-2">
              {column.items.map((item) => (
                <li key={item.label}>
                  <NavEntry item={item} currentPath={currentPath} className="text-sm capitalize hover:underline" />
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/15">
        <p className="mx-auto max-w-7xl px-5 py-6 text-xs text-white/80 lg:px-8">
          © {year} {FIRM.name}. All Rights Reserved.
        </p>
      </div>
    </footer>
  );
}

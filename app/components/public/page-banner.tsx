import type { ReactNode } from "react";
import { BackLink } from "./back-link";

/** The dark banner at the top of inner pages: title, optional subtitle and header text. */
export function PageBanner({ eyebrow, title, subtitle, text, children }: { eyebrow?: string; title: string; subtitle?: string; text?: string; children?: ReactNode }) {
  return (
    <section className="on-dark banner-bg bg-ink text-white">
      <div className="mx-auto max-w-7xl px-5 pt-16 pb-14 lg:px-8 lg:pt-20 lg:pb-16">
        {eyebrow ? <p className="text-xs font-semibold tracking-[0.2em] text-brass-light uppercase">{eyebrow}</p> : null}
        <h1 className="mt-3 max-w-4xl text-4xl leading-tight font-semibold text-balance sm:text-5xl">{title}</h1>
        {subtitle ? <p className="mt-4 max-w-3xl font-serif text-xl text-brass-light italic">{subtitle}</p> : null}
        {text ? <p className="mt-5 max-w-3xl text-lg leading-8 text-white/90">{text}</p> : null}
        {children}
      </div>
    </section>
  );
}

/**
 * The dark banner of one article or event: the link back to its list, the
 * small line above the title (category or format, and so on, one part each),
 * the title, then what the page adds under it (byline, date, status).
 */
export function ArticleBanner({
  back,
  kicker,
  title,
  children,
}: {
  back: { href: string; text: string };
  kicker: string[];
  title: string;
  children?: ReactNode;
}) {
  return (
    <header className="on-dark banner-bg bg-ink text-white">
      <div className="mx-auto max-w-3xl px-5 pt-14 pb-14 lg:pt-16">
        <BackLink href={back.href} place="banner">
          {back.text}
        </BackLink>
        <p className="mt-8 flex flex-wrap gap-x-4 text-xs font-semibold tracking-[0.18em] text-brass-light uppercase">
          {kicker.map((part, i) => (
            <span key={i}>{part}</span>
          ))}
        </p>
        <h1 className="mt-3 text-4xl leading-tight font-semibold text-balance sm:text-5xl">{title}</h1>
        {children}
      </div>
    </header>
  );
}

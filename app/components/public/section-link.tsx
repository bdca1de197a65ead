import type { ReactNode } from "react";
import { SCROLL_MS } from "~/lib/scroll";
import { isModifiedClick, useSectionScroll } from "./scrolling";

/**
 * A link to a section of the home page (`/#about`, `/#contact`): a real
 * anchor without JavaScript; with it, the spec's animated section scroll.
 */
export function SectionLink({
  section,
  duration = SCROLL_MS,
  className,
  children,
  onNavigate,
  ...rest
}: {
  section: "about" | "contact";
  duration?: number;
  className?: string;
  children: ReactNode;
  onNavigate?: () => void;
} & Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, "href" | "onClick">) {
  const go = useSectionScroll();
  return (
    <a
      {...rest}
      href={`/#${section}`}
      className={className}
      onClick={(event) => {
        if (isModifiedClick(event)) return;
        event.preventDefault();
        onNavigate?.();
        void go(section, duration);
      }}
    >
      {children}
    </a>
  );
}

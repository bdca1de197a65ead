import type { ReactNode } from "react";

/**
 * A link to a section of the home page (`/#about`, `/#contact`): a real
 * anchor without JavaScript; with it, the spec's animated section scroll
 * (app/enhance/section-links.ts). `slow`: the 650 ms of hero and banner links.
 */
export function SectionLink({
  section,
  slow = false,
  className,
  children,
  ...rest
}: {
  section: "about" | "contact";
  slow?: boolean;
  className?: string;
  children: ReactNode;
} & Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  return (
    <a {...rest} href={`/#${section}`} data-section={section} data-section-slow={slow ? "" : undefined} className={className}>
      {children}
    </a>
  );
}

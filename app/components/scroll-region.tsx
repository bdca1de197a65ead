import type { ReactNode } from "react";

/**
 * A region that may scroll sideways or down (a wide table): it takes the
 * focus, so a keyboard can scroll it (WCAG 2.1.1; axe's
 * scrollable-region-focusable), and is named for screen readers.
 */
export function ScrollRegion(props: { className: string; label?: string; labelledBy?: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a region that scrolls must take the focus for the keyboard to scroll it.
    <div className={props.className} role="region" aria-label={props.label} aria-labelledby={props.labelledBy} tabIndex={0}>
      {props.children}
    </div>
  );
}

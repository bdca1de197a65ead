/**
 * The first link of every page, public and dashboard: hidden until it has the
 * keyboard's focus, it jumps past the header to the page's <main id="main">.
 */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded bg-accent px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to main content
    </a>
  );
}

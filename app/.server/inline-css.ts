/**
 * The site's stylesheet as text, for public pages to carry inline (one round
 * trip less before the first paint; docs/performance.md). The same file as
 * `app.css?url` (the dashboard links it), processed by the same Tailwind build.
 */
import css from "../app.css?inline";

export const INLINE_CSS: string = css;

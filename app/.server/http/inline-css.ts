/**
 * Public pages' stylesheet as text, carried inline (one round trip less
 * before the first paint): app/public.css, which holds
 * only the public pages' classes. The dashboard links app/app.css.
 */
import css from "../../public.css?inline";

export const INLINE_CSS: string = css;

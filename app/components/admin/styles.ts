/** Shared class names of the dashboard (palette and contrast ratios: app/site.css). */
export const btnPrimary =
  "inline-flex items-center justify-center gap-2 rounded bg-accent px-4 py-2 font-semibold text-white hover:bg-accent-dark disabled:opacity-60";
export const btnSecondary =
  "inline-flex items-center justify-center gap-2 rounded border border-muted bg-white px-4 py-2 font-semibold text-ink hover:bg-soft";
export const btnDanger =
  "inline-flex items-center justify-center gap-2 rounded border border-error bg-white px-3 py-1.5 font-semibold text-error hover:bg-error hover:text-white";
export const inputClass =
  "mt-1 block w-full rounded border border-muted bg-white px-3 py-2 text-ink aria-[invalid=true]:border-2 aria-[invalid=true]:border-error";
export const labelClass = "block font-semibold text-ink";
export const linkClass = "font-semibold text-accent underline underline-offset-2 hover:text-accent-dark";

/** A file chooser whose button looks like the dashboard's secondary buttons (the recording and captions fields). */
export const fileInputClass =
  "mt-1 block w-full max-w-full text-sm file:mr-3 file:rounded file:border file:border-line file:bg-white file:px-3 file:py-2 file:font-semibold";
/** A picture's file chooser (the photo fields and the "Insert picture" dialog). */
export const imageInputClass = `${inputClass} file:mr-3 file:rounded file:border-0 file:bg-soft file:px-3 file:py-1 file:font-semibold`;

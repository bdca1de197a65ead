/** The public forms' field styles (the enquiry form and the subscription form share them). */
export const inputClass =
  "mt-2 block w-full border border-muted bg-white px-3 py-2.5 text-base text-ink aria-[invalid=true]:border-2 aria-[invalid=true]:border-error";
export const labelClass = "block font-semibold text-ink";

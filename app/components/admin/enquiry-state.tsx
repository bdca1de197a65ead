/** The state of an enquiry as a small badge (text, not colour alone). */
import { ENQUIRY_STATE_LABELS, type EnquiryState } from "~/lib/forms/enquiry";

export function EnquiryStateBadge({ state }: { state: EnquiryState }) {
  const tone =
    state === "new"
      ? "border-accent bg-[#e7f0f1] text-accent-dark"
      : state === "in_progress"
        ? "border-brass bg-[#f6efe1] text-ink"
        : "border-line bg-soft text-muted";
  return (
    <span className={`inline-block rounded border px-2 py-0.5 text-sm font-semibold ${tone}`}>{ENQUIRY_STATE_LABELS[state] ?? state}</span>
  );
}

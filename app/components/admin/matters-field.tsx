/**
 * Representative matters (issue 33): before hydration (or without
 * JavaScript) a plain textarea named `matters`, one matter a line (the
 * server makes it a list); then the TipTap editor in its list mode (bold,
 * italic, lists, links): rich-text-field.tsx.
 */
import { MATTERS_CONSENT_NOTE } from "~/lib/profile";
import { RichTextField } from "./rich-text-field";

export function MattersField({ defaultValue, error }: { defaultValue: string; error?: string }) {
  return (
    <RichTextField
      name="matters"
      defaultValue={defaultValue}
      error={error}
      label="Representative matters"
      hint={<>Optional: a short list. {MATTERS_CONSENT_NOTE} Without the editor, write one matter a line.</>}
      rows={6}
      mode="list"
    />
  );
}

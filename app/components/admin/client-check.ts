/**
 * The browser half of "one schema, checked twice": on submit the form's
 * schema runs on the same values the action will read; when it fails the
 * post is not sent, the fields show their messages and the status region the
 * form's message. The action checks again (it is the authority).
 */
import { useState } from "react";
import type { z } from "zod";
import { fieldErrors, formValues, hasMissing } from "~/lib/forms/form-data";
import { MSG, type Status } from "~/lib/forms/messages";
import { focusFirstInvalid } from "./fields";
import { useAnnounce } from "./status";

export function useClientCheck(options: {
  schema: z.ZodType;
  lists?: readonly string[];
  extra?: (form: FormData) => Record<string, string>;
  status?: (errors: Record<string, string>) => Status;
}) {
  const announce = useAnnounce();
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === "intent" && submitter.value !== "save") return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const result = options.schema.safeParse(formValues(data, options.lists ?? []));
    const found = { ...(result.success ? {} : fieldErrors(result.error.issues)), ...(options.extra?.(data) ?? {}) };
    if (Object.keys(found).length === 0) {
      setErrors(null);
      announce(null);
      return;
    }
    event.preventDefault();
    setErrors(found);
    announce(options.status?.(found) ?? { tone: "error", text: hasMissing(found) ? MSG.missingFields : MSG.checkFields });
    setTimeout(() => focusFirstInvalid(form), 0);
  }
  return { clientErrors: errors, onSubmit, clearClientErrors: () => setErrors(null) };
}

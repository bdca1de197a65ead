/**
 * The dashboard's one status region (role="status", polite): the message of
 * a redirect (flash cookie), of the last action (400/500 answers), or of a
 * check in the browser, with the spec's exact words.
 */
import { CircleAlert, CircleCheck } from "lucide-react";
import { createContext, useContext } from "react";
import { UNSAFE_DataRouterStateContext } from "react-router";
import type { Status } from "~/lib/forms/messages";

export const AnnounceContext = createContext<(status: Status | null) => void>(() => {});

/** Shows a message in the status region (checks in the browser); null clears it. */
export function useAnnounce() {
  return useContext(AnnounceContext);
}

/** The status of the current action answer, whichever dashboard route it came from. */
export function useActionStatus(): Status | undefined {
  const state = useContext(UNSAFE_DataRouterStateContext);
  const all = state?.actionData;
  if (!all) return undefined;
  for (const value of Object.values(all)) {
    const status = (value as { status?: Status } | null)?.status;
    if (status && typeof status.text === "string") return status;
  }
  return undefined;
}

export function StatusRegion({ status }: { status: Status | null | undefined }) {
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sticky top-0 z-20" data-testid="status">
      {status ? (
        <p
          className={`mx-auto flex max-w-5xl items-start gap-2 border-l-4 px-4 py-3 font-semibold shadow-sm ${
            status.tone === "success" ? "border-success bg-[#eef6f0] text-success" : "border-error bg-[#fbeeee] text-error"
          }`}
        >
          {status.tone === "success" ? (
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          ) : (
            <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          )}
          <span>{status.text}</span>
        </p>
      ) : null}
    </div>
  );
}

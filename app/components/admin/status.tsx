/**
 * The dashboard's one status region (role="status", polite): the message of
 * a redirect (flash cookie), of the last action (400/500 answers), or of a
 * check in the browser, with the spec's exact words.
 */
import { CircleAlert, CircleCheck } from "lucide-react";
import { createContext, useContext } from "react";
import { unstable_useRoute as useRoute, useMatches } from "react-router";
import type { Status } from "~/lib/forms/messages";

type RouteId = Exclude<Parameters<typeof useRoute>[0], undefined>;

export const AnnounceContext = createContext<(status: Status | null) => void>(() => {});

/** Shows a message in the status region (checks in the browser); null clears it. */
export function useAnnounce() {
  return useContext(AnnounceContext);
}

/**
 * The status of the current page's last action answer. The layout's status
 * region shows it; the action belongs to the page's own route (the last
 * match), read with React Router's `useRoute(id)` (public, still marked
 * unstable in React Router 8; decision 0021).
 */
export function useActionStatus(): Status | undefined {
  const matches = useMatches();
  const page = useRoute(matches[matches.length - 1].id as RouteId);
  const status = (page?.actionData as { status?: Status } | null | undefined)?.status;
  return status && typeof status.text === "string" ? status : undefined;
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

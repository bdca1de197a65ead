/**
 * POST /stats/beacon — the visit statistics' one ingestion endpoint (decision
 * 0023). The public pages' enhancement module sends a beacon here
 * (`navigator.sendBeacon`, same origin, so the server's cross-site check lets
 * it through); app/.server/statistics/stats-ingest.ts checks it and buffers it. The
 * answer is 204 whether or not it was counted (a crawler learns nothing); a
 * malformed beacon 400, an oversized one 413 and any other method 405, each
 * with `{ error }` saying why. Never cached anywhere.
 */
import type { Route } from "./+types/beacon";
import { ingestBeacon } from "~/.server/statistics/stats-ingest";

const NEVER_STORED = { "Cache-Control": "no-store", "X-Accel-Expires": "0" };

const REFUSALS = {
  400: "Not a visit-statistics beacon.",
  405: "Send beacons with POST.",
  413: "Too large: a beacon is at most 4 KB.",
} as const;

function refuse(status: keyof typeof REFUSALS) {
  return Response.json({ error: REFUSALS[status] }, { status, headers: { ...NEVER_STORED, ...(status === 405 ? { Allow: "POST" } : {}) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return refuse(405);
  const { status } = await ingestBeacon(request, context);
  return status === 204 ? new Response(null, { status, headers: NEVER_STORED }) : refuse(status);
}

export function loader() {
  return refuse(405);
}

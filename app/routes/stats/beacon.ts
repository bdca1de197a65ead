/**
 * POST /stats/beacon — the visit statistics' one ingestion endpoint (decision
 * 0020). The public pages' enhancement module sends a beacon here
 * (`navigator.sendBeacon`, same origin, so the server's cross-site check lets
 * it through); app/.server/stats-ingest.ts checks it and buffers it. The
 * answer is 204 whether or not it was counted (a crawler learns nothing), 400
 * for a malformed beacon, 413 for an oversized one; never cached anywhere.
 * GET and other methods: 405.
 */
import type { Route } from "./+types/beacon";
import { ingestBeacon } from "~/.server/stats-ingest";

const NEVER_STORED = { "Cache-Control": "no-store", "X-Accel-Expires": "0" };

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { ...NEVER_STORED, Allow: "POST" } });
  const { status } = await ingestBeacon(request, context);
  return new Response(null, { status, headers: NEVER_STORED });
}

export function loader() {
  return new Response(null, { status: 405, headers: { ...NEVER_STORED, Allow: "POST" } });
}

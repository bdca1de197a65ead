/**
 * POST /stats/beacon read straight from Node's request (decision 0023): the
 * production server's fast path (server/app.ts) and the beacon thread's whole
 * job (server/stats-beacon-thread.ts). A beacon needs neither React Router nor
 * Express: taken through them it cost ~0.8 ms of the one server thread. The
 * same checks as the route module app/routes/stats/beacon.ts, which still
 * answers wherever this path is not taken (development, tests); the caller
 * says what becomes of a body (`ingest`) and whether the request is
 * same-origin. No database here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { STATS_BEACON_PATH } from "~/lib/stats";
import { MAX_BEACON_BYTES, type BeaconSource } from "./stats-beacon";

/** A POST to the beacon endpoint (any query string ignored). */
export function isBeaconPost(method: string | undefined, url: string | undefined): boolean {
  if (method !== "POST" || !url?.startsWith(STATS_BEACON_PATH)) return false;
  const rest = url.slice(STATS_BEACON_PATH.length);
  return rest === "" || rest.startsWith("?");
}

const REFUSALS: Record<number, string> = {
  400: '{"error":"Not a visit-statistics beacon."}',
  403: '{"error":"Cross-site requests are not allowed."}',
  413: '{"error":"Too large: a beacon is at most 4 KB."}',
};

/** Header lines for each answer, made once per set of security headers (a beacon is answered ~2,000 times a second). */
const heads = new WeakMap<Record<string, string>, Map<number, string[]>>();
function headOf(headers: Record<string, string>, status: number): string[] {
  let byStatus = heads.get(headers);
  if (!byStatus) heads.set(headers, (byStatus = new Map<number, string[]>()));
  let head = byStatus.get(status);
  if (!head) {
    head = [...Object.entries(headers).flat(), "Cache-Control", "no-store", "X-Accel-Expires", "0"];
    if (REFUSALS[status]) head.push("Content-Type", "application/json");
    byStatus.set(status, head);
  }
  return head;
}

/**
 * Answers one beacon: 204 (counted or not), 400, 403 (cross-site, decided by
 * the caller's `sameOrigin`) or 413. `ingest` checks and keeps a body (204)
 * or refuses it (400); `headers` are the server's security headers (the same
 * object every time); `requestId` goes in X-Request-Id; `done(status)` writes
 * the log line.
 */
export function answerBeacon(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    clientIp: string;
    sameOrigin: boolean;
    ingest(text: string, source: BeaconSource): 204 | 400;
    headers: Record<string, string>;
    requestId: string;
    done(status: number): void;
  },
): void {
  const send = (status: number) => {
    res.writeHead(status, [...headOf(options.headers, status), "X-Request-Id", options.requestId]);
    res.end(REFUSALS[status]);
    options.done(status);
  };
  if (!options.sameOrigin) {
    req.resume();
    return send(403);
  }
  if (Number(req.headers["content-length"] ?? 0) > MAX_BEACON_BYTES) {
    req.resume();
    return send(413);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BEACON_BYTES && !refused) {
      refused = true;
      send(413);
    }
    if (!refused) chunks.push(chunk);
  });
  req.on("error", () => {
    if (!refused && !res.headersSent) send(400);
    refused = true;
  });
  req.on("end", () => {
    if (refused) return;
    // Node keeps one User-Agent, joins repeated Cookie headers with "; " and other repeated headers with ", ".
    const gpc = req.headers["sec-gpc"];
    const source: BeaconSource = {
      userAgent: req.headers["user-agent"] ?? null,
      gpc: typeof gpc === "string" ? gpc : null,
      cookie: req.headers.cookie ?? null,
      hostname: (req.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[|\]$/g, ""),
      clientIp: options.clientIp,
    };
    let status: number = 400;
    try {
      status = options.ingest(Buffer.concat(chunks).toString("utf8"), source);
    } catch {
      status = 400;
    }
    send(status);
  });
}

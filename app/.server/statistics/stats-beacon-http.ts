/**
 * /stats/beacon, the visit statistics' one endpoint (decision 0023), read
 * straight from Node's request by server/app.ts before anything else (no
 * React Router: a beacon is a few hundred bytes and needs none of it). The
 * same code answers in development, in tests and in production.
 *
 * A POST from this site answers 204 whether or not it is counted (a crawler
 * learns nothing); the body goes to the ingestion (stats-ingest.ts), which
 * checks it. Refusals say why, as JSON: 400 not a beacon, 403 cross-site
 * (the caller's `sameOrigin`), 405 not a POST, 413 over 4 KB. Never stored by
 * a cache or proxy. No database here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { STATS_BEACON_PATH } from "~/lib/stats";
import type { TableRoute } from "../http/route-table";
import { ingestBeaconText, MAX_BEACON_BYTES, type BeaconSource } from "./stats-ingest";

/** A request for the beacon endpoint, any method (any query string ignored). */
export function isBeaconRequest(url: string | undefined): boolean {
  if (!url?.startsWith(STATS_BEACON_PATH)) return false;
  const rest = url.slice(STATS_BEACON_PATH.length);
  return rest === "" || rest.startsWith("?");
}

/** The endpoint's only refusal texts. */
export const BEACON_REFUSALS: Readonly<Record<400 | 403 | 405 | 413, string>> = {
  400: "Not a visit-statistics beacon.",
  403: "Cross-site requests are not allowed.",
  405: "Send beacons with POST.",
  413: "Too large: a beacon is at most 4 KB.",
};

/** Header lines for each answer, made once per set of security headers (the same object every time). */
const heads = new WeakMap<Record<string, string>, Map<number, string[]>>();
function headOf(headers: Record<string, string>, status: number): string[] {
  let byStatus = heads.get(headers);
  if (!byStatus) heads.set(headers, (byStatus = new Map<number, string[]>()));
  let head = byStatus.get(status);
  if (!head) {
    head = [...Object.entries(headers).flat(), "Cache-Control", "no-store", "X-Accel-Expires", "0"];
    if (status !== 204) head.push("Content-Type", "application/json");
    if (status === 405) head.push("Allow", "POST");
    byStatus.set(status, head);
  }
  return head;
}

export type BeaconRequestFacts = {
  /** The client's address (server/client-ip.ts). */
  clientIp: string;
  /** Whether the request comes from this site (server/same-origin.ts). */
  sameOrigin: boolean;
  /** The route a page's path goes to (route-table.ts `routeMatcher`): what the beacon counts as. */
  routeOf: (pathname: string) => TableRoute | undefined;
  /** The server's security headers (the same object every time). */
  headers: Record<string, string>;
  requestId: string;
  /** Called with the status once answered (the log line). */
  done(status: number): void;
};

/** Answers one request for the endpoint. */
export function answerBeacon(req: IncomingMessage, res: ServerResponse, facts: BeaconRequestFacts): void {
  const send = (status: 204 | keyof typeof BEACON_REFUSALS) => {
    res.writeHead(status, [...headOf(facts.headers, status), "X-Request-Id", facts.requestId]);
    res.end(status === 204 ? undefined : JSON.stringify({ error: BEACON_REFUSALS[status] }));
    facts.done(status);
  };
  if (req.method !== "POST" || !facts.sameOrigin || Number(req.headers["content-length"] ?? 0) > MAX_BEACON_BYTES) {
    req.resume();
    return send(req.method !== "POST" ? 405 : !facts.sameOrigin ? 403 : 413);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let answered = false;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BEACON_BYTES && !answered) {
      answered = true;
      send(413);
    }
    if (!answered) chunks.push(chunk);
  });
  req.on("error", () => {
    if (!answered && !res.headersSent) send(400);
    answered = true;
  });
  req.on("end", () => {
    if (answered) return;
    // Node keeps one User-Agent, joins repeated Cookie headers with "; " and other repeated headers with ", ".
    const gpc = req.headers["sec-gpc"];
    const source: BeaconSource = {
      userAgent: req.headers["user-agent"] ?? null,
      gpc: typeof gpc === "string" ? gpc : null,
      cookie: req.headers.cookie ?? null,
      hostname: (req.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[|\]$/g, ""),
      clientIp: facts.clientIp,
    };
    let status: 204 | 400 = 400;
    try {
      status = ingestBeaconText(Buffer.concat(chunks).toString("utf8"), source, facts.routeOf).status;
    } catch {
      status = 400;
    }
    send(status);
  });
}

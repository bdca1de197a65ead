/**
 * A beacon's request, answered the same way by both listeners that take
 * beacons: the pages' port's fast path (server/app.ts) and the beacon thread
 * (server/stats-beacon-thread.ts): the client's address, the cross-site
 * check, the answer (app/.server/statistics/stats-beacon-http.ts) and the log line.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { logRequest } from "~/.server/log";
import type { BeaconSource } from "~/.server/statistics/stats-beacon";
import { answerBeacon } from "~/.server/statistics/stats-beacon-http";
import { STATS_BEACON_PATH } from "~/lib/stats";
import { clientIp } from "./client-ip";
import { sameOrigin } from "./same-origin";

export function answerBeaconRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    ingest: (text: string, source: BeaconSource) => 204 | 400;
    headers: Record<string, string>;
    requestId: string;
    started: number;
    /** The log line's "cache" field: which listener answered. */
    tag: string;
  },
): void {
  answerBeacon(req, res, {
    clientIp: clientIp(req),
    sameOrigin: sameOrigin(req.headers),
    ingest: options.ingest,
    headers: options.headers,
    requestId: options.requestId,
    done: (status) =>
      logRequest(options.requestId, req.method, STATS_BEACON_PATH, status, performance.now() - options.started, options.tag),
  });
}

/**
 * The beacons' own listener, on a thread of its own (issue 32, decision 0023).
 * Started by server.js when STATS_BEACON_PORT is set (production); behind the
 * reference nginx, POST /stats/beacon goes here and the pages to PORT.
 *
 * A beacon is cheap but not free: answering its request (HTTP parsing, the
 * 204's write) and checking it cost about as much of a thread as two cached
 * pages, so 2,000 a second on the pages' thread took ~0.4 of their
 * throughput on a slow machine. Here they have their own event loop: this
 * thread answers each beacon, checks it and classifies a batch at a time with
 * the salts the main thread hands it, then hands the events over to the main
 * thread several times a second, which writes them with its own (one
 * statement a second, app/.server/statistics/stats-ingest.ts). No database here.
 *
 * In (workerData): { port, host }. Messages in: { type: "salts", salts }
 * (the day's salts, whenever they change); { type: "stop" } (stop listening,
 * answer what is in flight, hand everything over). Messages out:
 * { type: "listening", port } | { type: "failed", message } |
 * { type: "events", events, received } | { type: "stopped" }.
 */
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import { newRequestId } from "~/.server/log";
import { baseSecurityHeaders } from "~/.server/http/security-headers";
import { checkBeacon, classifyAll, type BeaconSource, type Received } from "~/.server/statistics/stats-beacon";
import { isBeaconPost } from "~/.server/statistics/stats-beacon-http";
import { STATS_BEACON_PATH } from "~/lib/stats";
import { answerBeaconRequest } from "./beacon-request";

/** Beacons are handed over this often… */
const HAND_OVER_MS = 200;
/** …or as soon as this many wait. */
const HAND_OVER_SIZE = 500;

if (!parentPort) throw new Error("server/stats-beacon-thread.ts runs as a worker thread (server.js starts it)");
const parent = parentPort;
const { port: listenPort, host } = workerData as { port: number; host: string };

let salts = new Map<string, string>();
let received: Received[] = [];
let timer: NodeJS.Timeout | undefined;
/** The hand-overs under way, in order (a batch's classification yields every 250 beacons). */
let handing: Promise<void> = Promise.resolve();

function handOver(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const batch = received;
  received = [];
  handing = handing.then(async () => {
    if (!batch.length) return;
    const events = await classifyAll(batch, salts);
    parent.postMessage({ type: "events", events, received: batch.length });
  });
  return handing;
}

function ingest(text: string, source: BeaconSource): 204 | 400 {
  const checked = checkBeacon(text, source);
  if (checked.status !== 204) return checked.status;
  received.push(checked.received);
  if (received.length >= HAND_OVER_SIZE) void handOver();
  else timer ??= setTimeout(() => void handOver(), HAND_OVER_MS);
  return 204;
}

const headers = baseSecurityHeaders();
const textHead = { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };

const server = http.createServer((req, res) => {
  const started = performance.now();
  const requestId = newRequestId();
  if (isBeaconPost(req.method, req.url)) {
    return answerBeaconRequest(req, res, { ingest, headers, requestId, started, tag: "beacon-thread" });
  }
  req.resume();
  if (req.url === "/healthz") return void res.writeHead(200, textHead).end("ok");
  if (req.url?.split("?")[0] === STATS_BEACON_PATH)
    return void res.writeHead(405, { ...textHead, Allow: "POST" }).end("Send beacons with POST.");
  res.writeHead(404, textHead).end("Not found: this port takes visit-statistics beacons only (POST /stats/beacon).");
});
server.keepAliveTimeout = 5000;

server.on("error", (error: NodeJS.ErrnoException) => {
  const why =
    error.code === "EADDRINUSE"
      ? "another program listens there: choose another port"
      : error.code === "EACCES"
        ? "not allowed to listen there: choose a port above 1023"
        : error.message;
  parent.postMessage({ type: "failed", message: `STATS_BEACON_PORT ${listenPort}: ${why}` });
});

parent.on("message", (message: { type: "salts"; salts: [string, string][] } | { type: "stop" }) => {
  if (message.type === "salts") salts = new Map(message.salts);
  else if (message.type === "stop") {
    // Stop listening, let the beacons in flight be answered, then hand everything over.
    const force = setTimeout(() => server.closeAllConnections(), 2000);
    server.close(() => {
      clearTimeout(force);
      void handOver().then(() => parent.postMessage({ type: "stopped" }));
    });
    server.closeIdleConnections();
  }
});

server.listen(listenPort, host, () => {
  const address = server.address();
  parent.postMessage({ type: "listening", port: typeof address === "object" && address ? address.port : listenPort });
});

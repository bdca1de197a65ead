/**
 * Requests and responses made with every property Express and its
 * middleware give them, from the start (decision 0017).
 *
 * A page-cache hit is answered before Express, on a request and response no
 * one else touches; every other request goes through Express, whose router
 * and middleware add own properties to both objects (`req.baseUrl`,
 * `req.params`, `res.locals`, compression's `res.write`/`res.end`,
 * on-finished's `res.__onFinished`…), each kind of request in its own order.
 * Each addition gives the object another hidden class, and Node's own HTTP
 * code — shared by every request of the process — meets them all: its
 * inline caches turn megamorphic and the hits pay for it. Profiled with
 * `perf` on a lawyer's page (docs/performance.md, 2026-11-27): a hit cost
 * 1.02× the bare node:http server's CPU before any Express traffic and 1.18×
 * after a few seconds of it (/healthz, a script, /admin).
 *
 * server.js passes these classes to `http.createServer`, so every request and
 * response is made with those properties already there, in one order:
 * Express then changes their values, never their shape. Each is created
 * holding what reading it gave before (undefined, or the value or method
 * inherited from Node's prototype, which compression and on-headers read and then
 * replace), so nothing reads differently. They are subclasses (a class
 * extending Node's gets room for Node's own fields inside the object; a plain
 * function calling Node's constructor did not, and V8 kept every response as
 * a dictionary), so Express is given their prototypes as `app.request` and
 * `app.response` (./express-prototypes.ts) and its `setPrototypeOf` stays a
 * no-op.
 *
 * request-shapes.test.ts sends each kind of request through the app and
 * fails when Express or a middleware adds a property not made here (an
 * upgrade), so that the list gets updated.
 */
import http from "node:http";
import { createRequire } from "node:module";
import type { Socket } from "node:net";

/** The symbol Express's router keeps the matched route under (a Symbol() of its own module), if it can be found. */
function matchedRouteSymbol(): symbol | undefined {
  try {
    const fromHere = createRequire(import.meta.url);
    const symbol = createRequire(fromHere.resolve("express"))("router/lib/symbols.js").matchedRoute;
    return typeof symbol === "symbol" ? symbol : undefined;
  } catch {
    return undefined;
  }
}
const matchedRoute = matchedRouteSymbol();
const { write, end, on, writeHead } = http.ServerResponse.prototype;
const { flush } = http.ServerResponse.prototype as unknown as { flush: unknown };

type Fields = Record<string | symbol, unknown>;
/** Node calls `new ServerResponse(req, { highWaterMark, rejectNonStandardBodyWrites })`; its types list only `req`. */
const NodeServerResponse = http.ServerResponse as unknown as new (req: http.IncomingMessage, options?: object) => http.ServerResponse;

// Named stores, not a loop over a list of names: one store site a name keeps the construction monomorphic.
export class ShapedRequest extends http.IncomingMessage {
  constructor(socket: Socket) {
    super(socket);
    const self = this as unknown as Fields;
    self.res = undefined;
    self.next = undefined;
    self.baseUrl = undefined;
    self.originalUrl = undefined;
    self._parsedUrl = undefined;
    self._parsedOriginalUrl = undefined;
    self.params = undefined;
    self.route = undefined;
    self.__onFinished = undefined;
    if (matchedRoute) self[matchedRoute] = undefined;
    // Inherited (EventEmitter.prototype's 0) until the first listener: Node's Readable sets `_events` but not this.
    self._eventsCount = self._eventsCount;
  }
}

export class ShapedResponse extends NodeServerResponse {
  constructor(req: http.IncomingMessage, options?: object) {
    super(req, options);
    const self = this as unknown as Fields;
    // Node's prototype holds their defaults (200, undefined); writeHead sets them, which a cache hit does not call (response-head.ts).
    self.statusCode = self.statusCode;
    self.statusMessage = self.statusMessage;
    self.locals = undefined;
    self.__onFinished = undefined;
    self.write = write;
    self.end = end;
    self.on = on;
    self.writeHead = writeHead;
    self.flush = flush;
  }
}

/** The own properties the classes add that Node's prototypes do not have (created undefined). */
export const REQUEST_FIELDS: (string | symbol)[] = [
  "res",
  "next",
  "baseUrl",
  "originalUrl",
  "_parsedUrl",
  "_parsedOriginalUrl",
  "params",
  "route",
  "__onFinished",
  ...(matchedRoute ? [matchedRoute] : []),
];
export const RESPONSE_FIELDS = ["statusCode", "statusMessage", "locals", "__onFinished", "write", "end", "on", "writeHead", "flush"];

/** Only names Node's prototypes do not have already (an own undefined would hide theirs). */
const usable =
  REQUEST_FIELDS.every((name) => !(name in http.IncomingMessage.prototype)) &&
  !("locals" in http.ServerResponse.prototype) &&
  !("__onFinished" in http.ServerResponse.prototype);

/** The options for `http.createServer`: the shaped classes, or none when a name collides with Node's own (then Express works as it always did). */
export function requestShapes(): { IncomingMessage?: typeof http.IncomingMessage; ServerResponse?: typeof http.ServerResponse } {
  return usable ? { IncomingMessage: ShapedRequest, ServerResponse: ShapedResponse as unknown as typeof http.ServerResponse } : {};
}

/**
 * A page-cache hit's response head, serialised once per cached page instead
 * of on every hit (issue 15, decision 0015, docs/performance.md).
 *
 * `writeHead(status, list)` validates every header name and value with
 * regular expressions, inspects each name, and concatenates the head line by
 * line: for a cached page's 17 headers (~1.2 KB, the CSP most of it) that was
 * ~37,000 instructions of a hit's ~125,000 (`npm run bench:instructions`).
 * A cached page's headers do not change from hit to hit, so they are
 * validated (with Node's own `validateHeaderName`/`validateHeaderValue`) and
 * serialised once, here, into a `PreparedHead`.
 *
 * Node has no public way to send a serialised head. `sendPreparedHead` does
 * what `writeHead` → `_storeHeader` would do for this response and sets the
 * one field they fill (`_header`: the head, here as a Buffer where Node puts
 * a string — `end()` writes either as it is, with the body in one `writev`). It does so only in the state
 * in which `_storeHeader` would write exactly the same bytes: a GET answered
 * 200 with a body, no header set before, the connection kept alive (HTTP/1.1
 * or a keep-alive HTTP/1.0 request), not its last allowed request, no
 * `Expect: 100-continue`. Anything else — HEAD, 304, `Connection: close`,
 * the last request of `maxRequestsPerSocket`, shutdown (`server.js` sets
 * `Connection: close`) — returns false and the caller uses `writeHead`.
 *
 * The first use checks that Node's response has the fields this relies on,
 * with the types and initial values it expects (`fieldsAsExpected`); if a
 * Node upgrade changed them, the fast path stays off for good (one warning in
 * the log) and every hit goes through `writeHead`. `response-head.test.ts`
 * compares the bytes on the wire with `writeHead`'s, request by request,
 * including pipelined and HTTP/1.0 requests, so an upgrade that changed
 * `_storeHeader`'s output fails the suite.
 */
import { STATUS_CODES, validateHeaderName, validateHeaderValue, type ServerResponse } from "node:http";

/**
 * The status line and the headers that never change for one cached page and
 * encoding; and the same followed by the proxy expiry (which changes once a
 * second) and the request id's name, made when the expiry changes.
 */
export type PreparedHead = { status: number; head: string; expires?: string; withExpires?: Buffer };

/** The fields of Node's ServerResponse (Node 20) that writeHead and _storeHeader read or fill. */
type NodeResponse = ServerResponse & {
  /** The head: a string when _storeHeader makes it; a Buffer here (end() writes either as it is, see sendPreparedHead). */
  _header: string | Buffer | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _last: boolean;
  _removedConnection: boolean;
  _defaultKeepAlive: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket: number;
  _expect_continue: boolean;
  shouldKeepAlive: boolean;
  maxRequestsOnConnectionReached: boolean;
  chunkedEncoding: boolean;
};

/**
 * Validates the headers (as writeHead would, once) and serialises them after
 * the status line. `headers` is a flat [name, value, name, value…] list.
 */
export function prepareHead(status: number, headers: readonly string[]): PreparedHead {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "unknown"}\r\n`;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i];
    const value = headers[i + 1];
    validateHeaderName(name);
    validateHeaderValue(name, value);
    head += `${name}: ${value}\r\n`;
  }
  // Turned into bytes (with the proxy expiry) once a second by sendPreparedHead, never written as a string.
  return { status, head };
}

/** The end of the request id's line, then `Date`, `Connection` and `Keep-Alive` as _storeHeader writes them, and the blank line; made once a second. */
let tailSecond = -1;
let tailTimeout = -1;
let tailMax = -1;
let tail = Buffer.alloc(0);
function headTail(now: number, keepAliveTimeout: number, maxRequests: number): Buffer {
  const second = Math.floor(now / 1000);
  if (second !== tailSecond || keepAliveTimeout !== tailTimeout || maxRequests !== tailMax) {
    tailSecond = second;
    tailTimeout = keepAliveTimeout;
    tailMax = maxRequests;
    let text = `\r\nDate: ${new Date(second * 1000).toUTCString()}\r\nConnection: keep-alive\r\n`;
    if (keepAliveTimeout)
      text += `Keep-Alive: timeout=${Math.floor(keepAliveTimeout / 1000)}${~~maxRequests > 0 ? `, max=${maxRequests}` : ""}\r\n`;
    tail = Buffer.from(`${text}\r\n`, "latin1");
  }
  return tail;
}

/** null until the first use; then whether Node's response looks as this module expects. */
let usable: boolean | null = null;
/** The symbol under which Node keeps headers set with setHeader (null while there are none). */
let outHeaders: symbol | undefined;

function findOutHeaders(res: ServerResponse): symbol | undefined {
  return Object.getOwnPropertySymbols(res).find((s) => s.description === "kOutHeaders");
}

/**
 * The fields this module relies on, with their types, and the initial values
 * of those no request can change before the head is written; read from a
 * response no head was written to yet. (What a request can change — an
 * `Expect: 100-continue`, HTTP/1.0, a header set at shutdown — is only
 * checked by type here, so an odd first request cannot turn the fast path off.)
 */
export function fieldsAsExpected(res: ServerResponse): boolean {
  const r = res as NodeResponse;
  const headersSet = (res as unknown as Record<symbol, unknown>)[findOutHeaders(res) ?? Symbol()];
  return (
    r._header === null &&
    r._headerSent === false &&
    typeof r._hasBody === "boolean" &&
    r._last === false &&
    r._removedConnection === false &&
    r._defaultKeepAlive === true &&
    typeof r._keepAliveTimeout === "number" &&
    typeof r._maxRequestsPerSocket === "number" &&
    typeof r._expect_continue === "boolean" &&
    typeof r.shouldKeepAlive === "boolean" &&
    typeof r.maxRequestsOnConnectionReached === "boolean" &&
    r.chunkedEncoding === false &&
    r.sendDate === true &&
    (headersSet === null || (typeof headersSet === "object" && headersSet !== undefined)) &&
    typeof (r as unknown as { _storeHeader?: unknown })._storeHeader === "function"
  );
}

/** For tests: forget the result of the first use's check. */
export function resetPreparedHeadCheck(value: boolean | null = null) {
  usable = value;
}

/**
 * Sends `prepared`, then `X-Accel-Expires: <expires>` and `X-Request-Id:
 * <requestId>` (values the server made: never validated here), and `body` as
 * one response, if this response is in the state described above; returns
 * false, having written nothing, otherwise.
 */
export function sendPreparedHead(
  res: ServerResponse,
  prepared: PreparedHead,
  expires: string,
  requestId: string,
  body: Buffer,
  now: number,
): boolean {
  const r = res as NodeResponse;
  if (usable === null) {
    usable = fieldsAsExpected(res);
    outHeaders = findOutHeaders(res);
    if (!usable)
      console.warn(
        JSON.stringify({ level: "warn", msg: "response-head: this Node's ServerResponse is not as expected; cache hits use writeHead" }),
      );
  }
  if (
    !usable ||
    r._header !== null ||
    !r._hasBody ||
    !r.shouldKeepAlive ||
    r.maxRequestsOnConnectionReached ||
    r._expect_continue ||
    !r._defaultKeepAlive ||
    r._removedConnection ||
    (r as unknown as Record<symbol, unknown>)[outHeaders!] !== null
  ) {
    return false;
  }
  r.statusCode = prepared.status;
  if (prepared.expires !== expires) {
    prepared.expires = expires;
    prepared.withExpires = Buffer.from(`${prepared.head}X-Accel-Expires: ${expires}\r\nX-Request-Id: `, "latin1");
  }
  // The head as bytes, copied once: a string head would be flattened, then copied again into the write's
  // storage; a Buffer goes to the socket's writev as it is. OutgoingMessage._send queues a non-string head
  // as its own chunk (`outputData.unshift({ data: header, encoding: "latin1" })`), counts its length and
  // _flushOutput writes it before the body: the bytes on the wire are the same (response-head.test.ts).
  const prefix = prepared.withExpires!;
  const end = headTail(now, r._keepAliveTimeout, r._maxRequestsPerSocket);
  const head = Buffer.allocUnsafe(prefix.length + requestId.length + end.length);
  head.set(prefix, 0);
  const idLength = head.write(requestId, prefix.length, "latin1");
  head.set(end, prefix.length + idLength);
  r._header = head;
  r.end(body);
  return true;
}

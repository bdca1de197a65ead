/**
 * Structured JSON logs, one line each; never passwords, cookies or tokens.
 * Lines are written in batches (once per turn of the event loop) so logging
 * every request costs one write for many requests; errors go out at once.
 *
 * The request line is on the hot path of a page-cache hit (see
 * `npm run bench:profile`): it is written as text, not through
 * JSON.stringify of an object; the time stamp is made once per millisecond
 * and LOG_LEVEL read once per batch instead of once per line.
 */
import { randomBytes } from "node:crypto";

type Level = "info" | "warn" | "error";

/**
 * Request ids: this process's random prefix and a counter, unique across
 * instances and restarts, and cheap to make (every cache hit makes one, and
 * a UUID costs more than the rest of the log line).
 */
const idPrefix = randomBytes(9).toString("base64url");
let idCount = 0;
export function newRequestId(): string {
  return `${idPrefix}-${(++idCount).toString(36)}`;
}

let pending = "";
let scheduled = false;
let setting: string | undefined;
let stampMs = -1;
let stamp = "";
let stampSecond = -1;
let stampPrefix = "";

function flush() {
  scheduled = false;
  if (!pending) return;
  const text = pending;
  pending = "";
  process.stdout.write(text);
}

process.on("exit", flush);

/** LOG_LEVEL, read at the first line of each batch. */
function level(): string | undefined {
  if (!scheduled) setting = process.env.LOG_LEVEL;
  return setting;
}

/** The ISO time, made once per millisecond from a date-and-time prefix made once per second. */
function now(): string {
  const ms = Date.now();
  if (ms !== stampMs) {
    const second = Math.floor(ms / 1000);
    if (second !== stampSecond) {
      stampSecond = second;
      stampPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    stampMs = ms;
    const milli = ms - second * 1000;
    stamp = `${stampPrefix}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`;
  }
  return stamp;
}

function push(line: string) {
  pending += line + "\n";
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

export function log(level_: Level, msg: string, fields: Record<string, unknown> = {}) {
  const current = level_ === "error" ? process.env.LOG_LEVEL : level();
  if (current === "silent") return;
  if (current === "error" && level_ !== "error") return;
  const line = JSON.stringify({ time: now(), level: level_, msg, ...fields });
  if (level_ === "error") {
    flush();
    console.error(line);
    return;
  }
  push(line);
}

/** What JSON.stringify escapes in a string: the quote, the backslash, control characters and (well-formed JSON.stringify) lone surrogates; any surrogate falls back to it. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern must find.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as JSON.stringify writes it. A request's path almost never needs
 * escaping, and a pattern's test costs less than JSON.stringify's call into
 * the runtime on every request.
 */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

let secretPath: ((path: string) => string | null) | undefined;

/**
 * The request log writes a path that holds a secret (a cancel, confirmation
 * or reset link's token) as its route's pattern: set by the server from its
 * route table (lib/route-patterns.ts `secretRoutePattern`).
 */
export function setRequestLogSecrets(test: ((path: string) => string | null) | undefined) {
  secretPath = test;
}

/**
 * The one line of a request: the same fields, in the same order, as
 * log("info", "request", { id, method, path, status, ms, cache }). The id (from
 * newRequestId) and the method (a token Node's HTTP parser accepted) never need
 * escaping; the path and the cache state are escaped when they need it.
 */
export function logRequest(id: string, method: string | undefined, path: string, status: number, ms: number, cache?: string) {
  const current = level();
  if (current === "silent" || current === "error") return;
  if (secretPath) path = secretPath(path) ?? path;
  push(
    `{"time":"${now()}","level":"info","msg":"request","id":"${id}","method":"${method}","path":${jsonString(path)},"status":${status},"ms":${Math.round(ms * 10) / 10}${cache ? `,"cache":${jsonString(cache)}` : ""}}`,
  );
}

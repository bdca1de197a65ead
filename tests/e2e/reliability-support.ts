/**
 * Helpers of the reliability tests: raw HTTP requests (the path is sent as
 * written: fetch() would normalise `..` away), and a check for the build.
 */
import fs from "node:fs";
import http from "node:http";

export const BUILD_DIR = process.env.BUILD_DIR ?? "build";

export function requireBuild() {
  if (!fs.existsSync(`${BUILD_DIR}/server/index.js`)) {
    throw new Error(`No build in ${BUILD_DIR}/: run \`BUILD_DIR=${BUILD_DIR} npx react-router build\` first.`);
  }
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request with the path exactly as given; rejects on a socket error (a cut connection). */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: {
    method?: string;
    agent?: http.Agent;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
    /** Called once the TCP connection is established (the request is then written at once). */
    onConnect?: () => void;
  } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname === "localhost" ? "127.0.0.1" : url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        agent: options.agent,
        headers: { host: url.host, ...options.headers },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
        res.on("error", reject);
        res.on("aborted", () => reject(new Error(`response to ${path} aborted`)));
      },
    );
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`request to ${path} timed out`)));
    req.on("error", reject);
    if (options.onConnect) {
      const onConnect = options.onConnect;
      req.on("socket", (socket) => (socket.connecting ? socket.once("connect", onConnect) : onConnect()));
    }
    req.end(options.body);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it returns true; returns the elapsed ms, or throws after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await sleep(everyMs);
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

import http from "node:http";
import { once } from "node:events";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fieldsAsExpected, prepareHead, resetPreparedHeadCheck, sendPreparedHead } from "./response-head";

// A cached page's headers as a hit sends them (up to X-Cache), then the two a hit adds.
const headers = [
  "X-Content-Type-Options",
  "nosniff",
  "Content-Security-Policy",
  "default-src 'self'; script-src 'self' 'sha256-abc='; frame-ancestors 'none'",
  "Cache-Control",
  "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
  "ETag",
  'W/"abc"',
  "Content-Type",
  "text/html; charset=utf-8",
  "Content-Length",
  "11",
  "X-Cache",
  "HIT",
];
const body = Buffer.from("<p>Hi.</p>\n");
const prepared = prepareHead(200, headers);

type Server = { port: number; server: http.Server; fastPaths: number };

/**
 * One server, two ways of answering: /fast through sendPreparedHead (writeHead
 * when it declines), /reference through writeHead with the same list. The
 * request id is the request's own `n` parameter, so both answer the same bytes.
 */
async function start(configure: (server: http.Server) => void = () => {}): Promise<Server> {
  const state: Server = { port: 0, server: undefined as unknown as http.Server, fastPaths: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    const id = url.searchParams.get("n") ?? "0";
    if (url.searchParams.has("preset")) res.setHeader("X-Preset", "1");
    if (url.pathname === "/fast" && sendPreparedHead(res, prepared, "@1700000000", id, body, Date.now())) {
      state.fastPaths++;
      return;
    }
    res.writeHead(200, [...headers, "X-Accel-Expires", "@1700000000", "X-Request-Id", id]);
    res.end(req.method === "HEAD" ? undefined : body);
  });
  configure(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  state.port = (server.address() as AddressInfo).port;
  state.server = server;
  return state;
}

/**
 * Sends raw bytes, reads until `responses` bodies have arrived (and, with `untilClosed`, the server
 * has closed the connection); the Date lines made equal.
 */
async function exchange(port: number, text: string, responses: number, untilClosed = false): Promise<{ bytes: string; closed: boolean }> {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  let received = "";
  let closed = false;
  socket.on("data", (d: Buffer) => (received += d.toString("latin1")));
  socket.on("end", () => (closed = true));
  socket.write(text);
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline && !closed && (untilClosed || received.split("<p>Hi.</p>\n").length - 1 < responses)) {
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 50));
  socket.destroy();
  return { bytes: received.replace(/\r\nDate: [^\r]+\r\n/g, "\r\nDate: (any)\r\n"), closed };
}

const get = (path: string, n: number, extra = "", version = "1.1") =>
  `GET ${path}?n=${n} HTTP/${version}\r\nHost: localhost\r\n${extra}\r\n`;

let running: Server[] = [];
afterEach(async () => {
  resetPreparedHeadCheck();
  await Promise.all(running.map((s) => new Promise((r) => s.server.close(r))));
  running = [];
});
async function server(configure?: (server: http.Server) => void) {
  const s = await start(configure);
  s.server.keepAliveTimeout = 5000;
  running.push(s);
  return s;
}

describe("a cache hit's prepared head", () => {
  it("is the same bytes writeHead sends, request after request on a kept-alive connection", async () => {
    const s = await server();
    const fast = await exchange(s.port, get("/fast", 1) + get("/fast", 2), 2);
    const reference = await exchange(s.port, get("/reference", 1) + get("/reference", 2), 2);
    expect(s.fastPaths).toBe(2);
    expect(fast.bytes.replaceAll("/fast", "")).toBe(reference.bytes.replaceAll("/reference", ""));
    expect(fast.bytes).toMatch(/^HTTP\/1\.1 200 OK\r\nX-Content-Type-Options: nosniff\r\n/);
    expect(fast.bytes).toContain(
      "X-Cache: HIT\r\nX-Accel-Expires: @1700000000\r\nX-Request-Id: 1\r\nDate: (any)\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n<p>Hi.</p>\n",
    );
    expect(fast.bytes).toContain("X-Request-Id: 2\r\n");
    expect(fast.closed).toBe(false);
  });

  it("answers pipelined requests in order, as writeHead does", async () => {
    const s = await server();
    const requests = (path: string) => [1, 2, 3].map((n) => get(path, n)).join("");
    const fast = await exchange(s.port, requests("/fast"), 3);
    const reference = await exchange(s.port, requests("/reference"), 3);
    expect(fast.bytes).toBe(reference.bytes);
    expect([...fast.bytes.matchAll(/X-Request-Id: (\d)/g)].map((m) => m[1])).toEqual(["1", "2", "3"]);
    expect(s.fastPaths).toBe(3);
  });

  it("gives way to writeHead when the connection is to close: Connection: close, HTTP/1.0, the last request a connection may make", async () => {
    const s = await server((srv) => (srv.maxRequestsPerSocket = 2));
    // Node closes the connection itself after the first two; after the last allowed request it only says so.
    for (const [request, responses, closes] of [
      [get("/x", 1, "Connection: close\r\n"), 1, true],
      [get("/x", 1, "", "1.0"), 1, true],
      [get("/x", 1) + get("/x", 2), 2, false],
    ] as const) {
      const fast = await exchange(s.port, request.replaceAll("/x", "/fast"), responses, closes);
      const reference = await exchange(s.port, request.replaceAll("/x", "/reference"), responses, closes);
      expect(fast.bytes).toBe(reference.bytes);
      expect(fast.bytes).toMatch(/Connection: close\r\n\r\n<p>Hi\.<\/p>\n$/);
      expect(fast.closed).toBe(closes);
    }
    // Only the first request of the last pair could be kept alive (max=2, so it says so).
    expect(s.fastPaths).toBe(1);
  });

  it("keeps an HTTP/1.0 client that asks for keep-alive, with the same head", async () => {
    const s = await server();
    const fast = await exchange(s.port, get("/fast", 1, "Connection: keep-alive\r\n", "1.0"), 1);
    const reference = await exchange(s.port, get("/reference", 1, "Connection: keep-alive\r\n", "1.0"), 1);
    expect(fast.bytes).toBe(reference.bytes);
    expect(s.fastPaths).toBe(1);
  });

  it("writes no Keep-Alive line when the server has no keep-alive timeout, as writeHead does", async () => {
    const s = await server();
    s.server.keepAliveTimeout = 0;
    const fast = await exchange(s.port, get("/fast", 1), 1);
    const reference = await exchange(s.port, get("/reference", 1), 1);
    expect(fast.bytes).toBe(reference.bytes);
    expect(fast.bytes).not.toContain("Keep-Alive:");
    expect(s.fastPaths).toBe(1);
  });

  it("declines a HEAD request and a response that already has a header set", async () => {
    const s = await server();
    const head = await exchange(s.port, `HEAD /fast?n=1 HTTP/1.1\r\nHost: x\r\n\r\n`, 0);
    expect(head.bytes).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    const preset = await exchange(s.port, get("/fast", 2, "").replace("?n=2", "?n=2&preset"), 1);
    expect(preset.bytes).toContain("X-Preset: 1\r\n");
    expect(s.fastPaths).toBe(0);
  });

  it("is not turned off by an odd first request (a header set before, Expect: 100-continue, HTTP/1.0)", async () => {
    for (const first of [
      get("/fast", 1).replace("?n=1", "?n=1&preset"),
      get("/fast", 1, "Expect: 100-continue\r\n"),
      get("/fast", 1, "", "1.0"),
    ]) {
      resetPreparedHeadCheck();
      const s = await server();
      await exchange(s.port, first, 1);
      expect(s.fastPaths).toBe(0);
      await exchange(s.port, get("/fast", 2), 1);
      expect(s.fastPaths, first).toBe(1);
    }
  });

  it("stays off for good when Node's response is not as expected (a Node upgrade), answering through writeHead", async () => {
    const s = await server();
    resetPreparedHeadCheck(false);
    const fast = await exchange(s.port, get("/fast", 1), 1);
    const reference = await exchange(s.port, get("/reference", 1), 1);
    expect(fast.bytes).toBe(reference.bytes);
    expect(s.fastPaths).toBe(0);
  });

  it("finds this Node's response as expected", async () => {
    let seen: boolean | undefined;
    const s = await server();
    s.server.removeAllListeners("request");
    s.server.on("request", (_req, res: http.ServerResponse) => {
      seen = fieldsAsExpected(res);
      res.end();
    });
    await exchange(s.port, get("/", 1), 0);
    expect(seen).toBe(true);
  });

  it("refuses headers writeHead would refuse, when it is prepared", () => {
    expect(() => prepareHead(200, ["X-Bad", "a\r\nSet-Cookie: x=1"])).toThrow(/Invalid character/);
    expect(() => prepareHead(200, ["Bad Name", "1"])).toThrow(/Header name must be a valid HTTP token/);
  });
});

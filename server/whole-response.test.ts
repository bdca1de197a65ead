import http from "node:http";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import net from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWhole } from "./whole-response";

const page = "<!doctype html><title>Dashboard</title>" + "<p>Manage Team</p>".repeat(400);
let release: () => void = () => {};
let server: http.Server;
let port = 0;

/** A body written in parts, as a streamed render is: the first part now, the rest when `rest` resolves. */
function streamed(first: string, rest: Promise<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(encoder.encode(first));
      controller.enqueue(encoder.encode(await rest));
      controller.close();
    },
  });
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const html = { "Content-Type": "text/html; charset=utf-8" };
    let response: Response;
    if (req.url === "/slow") {
      response = new Response(streamed(page.slice(0, 100), new Promise((resolve) => (release = () => resolve(page.slice(100))))), {
        headers: html,
      });
    } else if (req.url === "/page") {
      response = new Response(streamed(page.slice(0, 1000), new Promise((resolve) => setTimeout(() => resolve(page.slice(1000)), 5))), {
        headers: html,
      });
    } else if (req.url === "/cookies") {
      const headers = new Headers({ "Content-Type": "text/plain", "Cache-Control": "public, max-age=60" });
      headers.append("Set-Cookie", "a=1; Path=/");
      headers.append("Set-Cookie", "b=2; Path=/");
      response = new Response("two cookies", { status: 201, headers });
    } else {
      response = new Response("ok", { headers: { "Content-Type": "text/plain" } });
    }
    void sendWhole(req, res, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("whole responses", () => {
  it("sends nothing until the response is complete, then the head and body together with a Content-Length", async () => {
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    const received: Buffer[] = [];
    socket.on("data", (d: Buffer) => received.push(d));
    socket.write("GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    await new Promise((r) => setTimeout(r, 200));
    // The first part was written 200 ms ago: a streamed response would have sent the head by now.
    expect(Buffer.concat(received).length).toBe(0);
    release();
    await once(socket, "end");
    const text = Buffer.concat(received).toString();
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toMatch(new RegExp(`content-length: ${Buffer.byteLength(page)}\\r\\n`, "i"));
    expect(text).not.toMatch(/transfer-encoding/i);
    expect(text.endsWith(page)).toBe(true);
  });

  it("compresses with brotli or gzip as the client accepts, and says so", async () => {
    const br = await fetch(`http://127.0.0.1:${port}/page`, { headers: { "accept-encoding": "br, gzip" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(await br.text()).toBe(page); // fetch decodes
    const raw = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = net.connect(port, "127.0.0.1", () =>
        req.write("GET /page HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"),
      );
      const parts: Buffer[] = [];
      req.on("data", (d: Buffer) => parts.push(d));
      req.on("error", reject);
      req.on("end", () => {
        const all = Buffer.concat(parts);
        const split = all.indexOf("\r\n\r\n");
        const head = all.subarray(0, split).toString();
        const headers = Object.fromEntries(
          head
            .split("\r\n")
            .slice(1)
            .map((l) => [l.split(":")[0].toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
        );
        resolve({ headers, body: all.subarray(split + 4) });
      });
    });
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(Number(raw.headers["content-length"])).toBe(raw.body.length);
    expect(zlib.gunzipSync(raw.body).toString()).toBe(page);
    const plain = await fetch(`http://127.0.0.1:${port}/page`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(page);
  });

  it("leaves small bodies as they are, and keeps a response out of every cache unless it says otherwise", async () => {
    const r = await fetch(`http://127.0.0.1:${port}/small`, { headers: { "accept-encoding": "br" } });
    expect(r.headers.get("content-encoding")).toBeNull();
    expect(r.headers.get("content-length")).toBe("2");
    expect(r.headers.get("cache-control")).toBe("private, no-store");
    expect(await r.text()).toBe("ok");
  });

  it("sends the status, every cookie and the route's own Cache-Control", async () => {
    const r = await fetch(`http://127.0.0.1:${port}/cookies`);
    expect(r.status).toBe(201);
    expect(r.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(r.headers.get("cache-control")).toBe("public, max-age=60");
    expect(await r.text()).toBe("two cookies");
  });
});

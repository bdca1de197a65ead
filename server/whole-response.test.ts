import express from "express";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import net from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wholeResponse } from "./whole-response";

const page = "<!doctype html><title>Dashboard</title>" + "<p>Manage Team</p>".repeat(400);
let release: () => void = () => {};
let server: ReturnType<express.Express["listen"]>;
let port = 0;

beforeAll(async () => {
  const app = express();
  app.use(wholeResponse);
  // Written in parts with a pause between them, as a streamed render is.
  app.get("/slow", (_req, res) => {
    res.type("html");
    res.write(page.slice(0, 100));
    release = () => res.end(page.slice(100));
  });
  app.get("/page", (_req, res) => {
    res.type("html");
    res.write(page.slice(0, 1000));
    setTimeout(() => res.end(page.slice(1000)), 5);
  });
  app.get("/small", (_req, res) => void res.type("text/plain").send("ok"));
  server = app.listen(0, "127.0.0.1");
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

  it("leaves small bodies as they are", async () => {
    const r = await fetch(`http://127.0.0.1:${port}/small`, { headers: { "accept-encoding": "br" } });
    expect(r.headers.get("content-encoding")).toBeNull();
    expect(r.headers.get("content-length")).toBe("2");
    expect(await r.text()).toBe("ok");
  });
});

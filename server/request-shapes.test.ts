import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import compression from "compression";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { expressOnNodePrototypes } from "./express-prototypes";
import { REQUEST_FIELDS, RESPONSE_FIELDS, requestShapes, ShapedRequest, ShapedResponse } from "./request-shapes";

const servers: http.Server[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "request-shapes-"));
afterAll(() => {
  servers.forEach((s) => s.close());
  fs.rmSync(dir, { recursive: true, force: true });
});

const keys = (o: object) => Reflect.ownKeys(o).map(String);

/**
 * An Express app with the kinds of middleware the site's (server/app.ts) has: compression,
 * static files (send, on-finished), a writeHead wrapper, res.locals, routes with parameters,
 * a 404; served with the shaped classes, as server.js does. Records each request's and
 * response's own properties when it was made and when it finished.
 */
async function serve() {
  const shapes = requestShapes();
  const app = express();
  expect(expressOnNodePrototypes(app, { request: ShapedRequest.prototype, response: ShapedResponse.prototype })).toBe(true);
  const seen: { url: string; req: [string[], string[]]; res: [string[], string[]]; prototypes: boolean }[] = [];
  app.use((req, res, next) => {
    res.locals.id = "x";
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    next();
  });
  app.use(compression({ threshold: 0 }));
  fs.writeFileSync(path.join(dir, "file.js"), "console.log('a file');\n".repeat(50));
  app.use("/assets", express.static(dir, { index: false }));
  app.get("/lawyer/:slug", (req, res) => void res.type("text/plain").send(`lawyer ${req.params.slug}`));
  app.get("/healthz", (_req, res) => void res.type("text/plain").send("ok"));
  const server = http.createServer(shapes, (req, res) => {
    const made = { req: keys(req), res: keys(res) };
    res.on("finish", () =>
      seen.push({
        url: req.url!,
        req: [made.req, keys(req)],
        res: [made.res, keys(res)],
        prototypes: Object.getPrototypeOf(req) === ShapedRequest.prototype && Object.getPrototypeOf(res) === ShapedResponse.prototype,
      }),
    );
    if (req.url === "/plain") return void res.end("plain"); // answered before Express, as a page-cache hit is
    app(req as express.Request, res as express.Response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("requests and responses made with the properties Express adds", () => {
  it("are made by the server with Node's prototypes behind them, and nothing of Node's is hidden", () => {
    const shapes = requestShapes();
    expect(shapes.IncomingMessage).toBe(ShapedRequest);
    expect(shapes.ServerResponse).toBe(ShapedResponse);
    expect(Object.getPrototypeOf(ShapedRequest.prototype)).toBe(http.IncomingMessage.prototype);
    expect(Object.getPrototypeOf(ShapedResponse.prototype)).toBe(http.ServerResponse.prototype);
    // The router's own symbol was found (else its first route match would add it).
    expect(REQUEST_FIELDS.some((f) => typeof f === "symbol")).toBe(true);
    for (const name of REQUEST_FIELDS) expect(name in http.IncomingMessage.prototype).toBe(false);
  });

  it("Express, compression, static files and routes change their values, never add a property: every request keeps one shape", async () => {
    const { base, seen } = await serve();
    const asked = [
      ["/plain", 200, "plain"],
      ["/lawyer/Eleanor-Whitcombe?x=1", 200, "lawyer Eleanor-Whitcombe"],
      ["/healthz", 200, "ok"],
      ["/assets/file.js", 200, "console.log('a file');\n".repeat(50)],
      ["/assets/missing.js", 404, undefined],
      ["/nowhere", 404, undefined],
    ] as const;
    for (const [url, status, body] of asked) {
      for (const encoding of ["gzip", "identity"]) {
        const response = await fetch(base + url, { headers: { "accept-encoding": encoding } });
        expect(response.status).toBe(status);
        const text = await response.text();
        if (body !== undefined) expect(text).toBe(body);
      }
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(asked.length * 2);
    for (const s of seen) {
      // The same names, in the same order, when made and when finished: no property was added.
      expect({ url: s.url, req: s.req[1] }).toEqual({ url: s.url, req: s.req[0] });
      expect({ url: s.url, res: s.res[1] }).toEqual({ url: s.url, res: s.res[0] });
      expect(s.prototypes).toBe(true);
    }
    // And every request was made with the same names as every other.
    expect(new Set(seen.map((s) => s.req[0].join())).size).toBe(1);
    expect(new Set(seen.map((s) => s.res[0].join())).size).toBe(1);
    for (const name of RESPONSE_FIELDS) expect(seen[0].res[0]).toContain(name);
  });
});

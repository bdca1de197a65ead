import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import { afterAll, describe, expect, it } from "vitest";
import { expressOnNodePrototypes } from "./express-prototypes";

const servers: http.Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function serve(app: Express): Promise<string> {
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// In this order: the first app whose names do not collide is the one put on Node's prototypes.
describe("Express's methods on Node's own prototypes", () => {
  it("changes nothing when a name Express defines is already Node's (an upgrade): Express keeps its own prototypes", () => {
    const clash = {
      request: Object.create(http.IncomingMessage.prototype, { notNodes: { value: 1 }, setTimeout: { value: 2 } }),
      response: Object.create(http.ServerResponse.prototype),
    } as unknown as Express;
    expect(expressOnNodePrototypes(clash)).toBe(false);
    expect("notNodes" in http.IncomingMessage.prototype).toBe(false);
  });

  it("a request Express handles keeps Node's prototype, and Express's methods, getters and req.app still work", async () => {
    const app = express();
    expect(expressOnNodePrototypes(app)).toBe(true);
    const prototypes: boolean[] = [];
    app.get("/hello", (req, res) => {
      prototypes.push(
        Object.getPrototypeOf(req) === http.IncomingMessage.prototype,
        Object.getPrototypeOf(res) === http.ServerResponse.prototype,
      );
      res
        .status(201)
        .type("text/plain")
        .set("X-Asked", req.get("x-asked") ?? "")
        .send(`${req.path} ${String(req.query.a)} ${req.app === app} ${res.app === app}`);
    });
    const response = await fetch(`${await serve(app)}/hello?a=1`, { headers: { "x-asked": "yes" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("x-asked")).toBe("yes");
    expect(await response.text()).toBe("/hello 1 true true");
    expect(prototypes).toEqual([true, true]);
  });

  it("a second app is left as Express makes it, and works with its own req.app", async () => {
    const second = express();
    expect(expressOnNodePrototypes(second)).toBe(false);
    second.get("/", (req, res) => void res.send(String(req.app === second)));
    expect(await (await fetch(await serve(second))).text()).toBe("true");
  });
});

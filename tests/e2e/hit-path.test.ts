/**
 * The page-cache hit path on the built server (server/page-cache-tier.ts):
 * the production node flags, a hit's head on kept-alive and closed
 * connections, and the enquiry form's pages rendered again ahead of the end
 * of their short life.
 */
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import { PRODUCTION_NODE_ARGS } from "../../server/node-args.js";
import { describe, expect, it, ownServer } from "./fixture";
import { staffVisit } from "./support";

const server = ownServer();

describe("the production node flags (decision 0018)", () => {
  it("start the server, which then says nothing about them", () => {
    const commandLine = fs.readFileSync(`/proc/${server.process.pid}/cmdline`, "utf8").split("\0");
    expect(commandLine).toEqual(expect.arrayContaining([...PRODUCTION_NODE_ARGS, "server.js"]));
    expect(server.output()).not.toContain("node was started without");
  });
});

describe("pages holding the enquiry form (a 5-second life for the timing token, decision 0009)", () => {
  it("are rendered again in the background before their life ends: visitors keep getting hits, and the token changes", async () => {
    const token = (html: string) => /name="form_token" value="([^"]+)"/.exec(html)?.[1];
    const first = await fetch(`${server.url}/contact`);
    const firstToken = token(await first.text());
    expect(firstToken).toBeTruthy();
    const seen: string[] = [];
    const tokens = new Set<string>();
    const until = Date.now() + 7000;
    while (Date.now() < until) {
      const res = await fetch(`${server.url}/contact`);
      seen.push(res.headers.get("x-cache") ?? "");
      tokens.add(token(await res.text()) ?? "");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seen.filter((s) => s !== "HIT")).toEqual([]);
    expect(tokens.size).toBeGreaterThan(1);
    expect(tokens.has(firstToken!)).toBe(true);
  });
});

/** One raw HTTP exchange: the head as [name, value] pairs in order, and the body's length. */
async function rawExchange(url: string, request: string): Promise<{ status: string; headers: [string, string][]; bodyLength: number }> {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  const chunks: Buffer[] = [];
  socket.on("data", (d: Buffer) => chunks.push(d));
  socket.write(request);
  await once(socket, "end");
  const all = Buffer.concat(chunks);
  const end = all.indexOf("\r\n\r\n");
  const [status, ...lines] = all.subarray(0, end).toString("latin1").split("\r\n");
  return {
    status: status,
    headers: lines.map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)]),
    bodyLength: all.length - end - 4,
  };
}

describe("a cache hit's head", () => {
  it("after a staff visit, is the cached page's own, with this request's id, on kept-alive and closed connections alike", async () => {
    await staffVisit(server.url);
    for (const page of ["/team", "/insights", "/cyber"]) {
      await (await fetch(server.url + page)).arrayBuffer(); // cached
      // Two requests on one kept-alive connection, then the same page on a connection the server closes.
      const kept = await rawExchange(
        server.url,
        `GET ${page} HTTP/1.1\r\nHost: localhost\r\n\r\nGET ${page} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      const closed = await rawExchange(server.url, `GET ${page} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      const comparable = (headers: [string, string][]) =>
        headers.filter(([name]) => !/^(date|connection|keep-alive|x-request-id|x-accel-expires)$/i.test(name));
      const keptHead = kept.headers.slice(0, kept.headers.findIndex(([name]) => name === "Keep-Alive") + 1);
      expect(kept.status).toBe("HTTP/1.1 200 OK");
      expect(Object.fromEntries(keptHead)).toMatchObject({ "X-Cache": "HIT", Connection: "keep-alive", "Keep-Alive": "timeout=5" });
      expect(comparable(keptHead), page).toEqual(comparable(closed.headers));
      expect(Object.fromEntries(closed.headers)).toMatchObject({ "X-Cache": "HIT", Connection: "close" });
      expect(closed.bodyLength).toBe(Number(Object.fromEntries(closed.headers)["Content-Length"]));
      // Each hit has its own request id, also when the cached header lists are reused hit after hit.
      const ids = [Object.fromEntries(keptHead)["X-Request-Id"], Object.fromEntries(closed.headers)["X-Request-Id"]];
      expect(ids[0]).toMatch(/\S/);
      expect(new Set(ids).size).toBe(2);
    }
  });
});

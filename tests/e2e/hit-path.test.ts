/**
 * The page-cache hit path on the built server (docs/performance.md, "A cache
 * hit at the ceiling"): serving public pages turns no async_hooks on. An
 * AsyncLocalStorage's first run() turns them on for the whole process (every
 * later async resource pays a hook): React DOM's server renderer gets a
 * synchronous stand-in for it in the server build (server/react-request-storage.ts),
 * and our own auth-transaction storage is switched off once no transaction is
 * open (the owner account made at start-up runs one); better-auth's own are
 * switched off once no call into it is under way (`inBetterAuth`), so a staff
 * member's request leaves nothing on either. The probe checks itself: it must
 * see a storage it switches on.
 */
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCTION_NODE_ARGS } from "../../server/node-args.js";
import { startServer, staffVisit, type RunningServer } from "./support";
import { PUBLIC_PAGES } from "./public-helpers";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ nodeArgs: ["--require", path.resolve(import.meta.dirname, "../support/async-hooks-probe.cjs")] });
});
afterAll(async () => {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

/** How many AsyncLocalStorage instances have async_hooks on in the server (tests/support/async-hooks-probe.cjs). */
async function enabledStorages(): Promise<number> {
  const from = server.output().length;
  server.process.kill("SIGUSR2");
  for (let i = 0; i < 100; i++) {
    const found = /\[async-hooks-probe\] (\d+) self-check (.+)/.exec(server.output().slice(from));
    if (found) {
      expect(found[2], "the probe sees a storage it switches on").toBe("ok");
      return Number(found[1]);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the async-hooks probe did not answer");
}

describe("the production node flags (decision 0018)", () => {
  it("start the server, which then says nothing about them", () => {
    const commandLine = fs.readFileSync(`/proc/${server.process.pid}/cmdline`, "utf8").split("\0");
    expect(commandLine).toEqual(expect.arrayContaining([...PRODUCTION_NODE_ARGS, "server.js"]));
    expect(server.output()).not.toContain("node was started without");
  });
});

describe("async_hooks on the public path", () => {
  it("stay off after start-up (which made the owner account) and after every public page was rendered and served from the cache", async () => {
    expect(await enabledStorages()).toBe(0);
    for (const page of [...PUBLIC_PAGES, "/sitemap.xml", "/robots.txt", "/insights/feed.xml"]) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(server.url + page);
        expect(res.status, page).toBeLessThan(500);
        await res.arrayBuffer();
      }
    }
    expect(await enabledStorages()).toBe(0);
  });

  it("are off again once a signed-in staff member's requests have been answered (better-auth's storages)", async () => {
    await staffVisit(server.url);
    expect(await enabledStorages()).toBe(0);
    // And the public pages served after it still turn none on.
    const home = await fetch(server.url + "/");
    await home.arrayBuffer();
    expect(await enabledStorages()).toBe(0);
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

describe("a cache hit's head (app/.server/response-head.ts)", () => {
  it("on a kept-alive connection is the head writeHead sends for the same page, but for the connection's own lines", async () => {
    for (const page of ["/team", "/insights", "/cyber"]) {
      await (await fetch(server.url + page)).arrayBuffer(); // cached
      // Kept alive (the prepared head), then the same page on a connection the server closes (writeHead).
      const kept = await rawExchange(
        server.url,
        `GET ${page} HTTP/1.1\r\nHost: localhost\r\n\r\nGET ${page} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      const closed = await rawExchange(server.url, `GET ${page} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      const comparable = (headers: [string, string][]) =>
        headers.filter(([name]) => !/^(date|connection|keep-alive|x-request-id|x-accel-expires)$/i.test(name));
      const keptHead = kept.headers.slice(0, kept.headers.findIndex(([name]) => name === "Keep-Alive") + 1);
      expect(kept.status).toBe("HTTP/1.1 200 OK");
      expect(keptHead.map(([name]) => name).slice(-5)).toEqual(["X-Accel-Expires", "X-Request-Id", "Date", "Connection", "Keep-Alive"]);
      expect(Object.fromEntries(keptHead)).toMatchObject({ "X-Cache": "HIT", Connection: "keep-alive", "Keep-Alive": "timeout=5" });
      expect(comparable(keptHead), page).toEqual(comparable(closed.headers));
      expect(Object.fromEntries(closed.headers)).toMatchObject({ "X-Cache": "HIT", Connection: "close" });
      expect(closed.bodyLength).toBe(Number(Object.fromEntries(closed.headers)["Content-Length"]));
    }
  });
});

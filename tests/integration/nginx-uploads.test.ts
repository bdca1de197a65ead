/**
 * Uploads through the reference nginx (deploy/nginx/harrow-kline.conf, run by
 * tests/support/nginx.ts): a body over the form limit (13 MB) gets a page in
 * words with status 413 and never reaches an instance; the WordPress export's
 * upload path and an event recording's take more (here 20 MB), streamed to the instance whole.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../e2e/support";
import { nginxAvailable, startNginx, type RunningNginx } from "../support/nginx";

let nginx: RunningNginx | undefined;
let instance: http.Server | undefined;
/** What the instance received: each request's path and body size. */
const received: { path: string; bytes: number }[] = [];

afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => instance?.close(resolve));
});

const body = (megabytes: number) => new Uint8Array(megabytes * 1024 * 1024).fill(65);

describe.skipIf(!nginxAvailable())("uploads through the reference nginx", () => {
  it("answers a body over 13 MB with a page in words (413), and streams a WordPress export of 20 MB to the instance", async () => {
    instance = http.createServer((req, res) => {
      let bytes = 0;
      req.on("data", (chunk: Buffer) => (bytes += chunk.length));
      req.on("end", () => {
        received.push({ path: req.url ?? "", bytes });
        res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((resolve) => instance!.listen(0, "127.0.0.1", resolve));
    const { port } = instance.address() as AddressInfo;
    nginx = await startNginx({ instances: [`127.0.0.1:${port}`], port: await freePort() });

    const tooLarge = await fetch(`${nginx.url}/dashboard/subscribers/import`, { method: "POST", body: body(14) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await tooLarge.text();
    expect(page).toContain("<h1>The file is too large</h1>");
    expect(page).toContain("Nothing was saved.");
    expect(received.filter((r) => r.path === "/dashboard/subscribers/import")).toEqual([]);

    const upload = await fetch(`${nginx.url}/dashboard/import/wordpress/upload`, { method: "POST", body: body(20) });
    expect(upload.status).toBe(200);
    expect(received).toContainEqual({ path: "/dashboard/import/wordpress/upload", bytes: 20 * 1024 * 1024 });

    // An event recording chosen on the event form: the same streamed path.
    const recording = await fetch(`${nginx.url}/dashboard/events/12/recording`, { method: "POST", body: body(20) });
    expect(recording.status).toBe(200);
    expect(received).toContainEqual({ path: "/dashboard/events/12/recording", bytes: 20 * 1024 * 1024 });
  });
});

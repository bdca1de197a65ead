/**
 * Dynamic work is admitted a few at a time; clients that give up while
 * waiting must not keep their place, or the server would stop answering.
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "./support";

let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe("admission of dynamic work", () => {
  it("keeps answering after many clients abandon queued requests", async () => {
    server = await startServer({ env: { DYNAMIC_CONCURRENCY: "2" } });
    for (let round = 0; round < 3; round++) {
      const controllers = Array.from({ length: 40 }, () => new AbortController());
      const requests = controllers.map((c, i) =>
        fetch(`${server!.url}/admin?x=${round}-${i}`, { signal: c.signal }).catch(() => undefined),
      );
      await new Promise((r) => setTimeout(r, 5));
      for (const c of controllers) c.abort();
      await Promise.all(requests);
    }
    const started = Date.now();
    const res = await fetch(`${server.url}/admin`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
    // Uncached public pages too (rendered under the same limit).
    expect((await fetch(`${server.url}/no-such-page-${Date.now()}`, { signal: AbortSignal.timeout(10_000) })).status).toBe(404);
  });
});

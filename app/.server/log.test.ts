import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonString, log, logRequest, newRequestId } from "./log";

async function written(run: () => void): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  });
  run();
  await new Promise((resolve) => setImmediate(resolve));
  spy.mockRestore();
  return lines;
}

describe("request log lines", () => {
  const saved = process.env.LOG_LEVEL;
  afterEach(() => {
    process.env.LOG_LEVEL = saved;
  });

  it("are one JSON line each with the same fields as a log() line, in one write per batch", async () => {
    process.env.LOG_LEVEL = "info";
    const lines = await written(() => {
      logRequest("3f0c", "GET", '/post/a"b\\c', 200, 0.456, "hit");
      logRequest("3f0d", "HEAD", "/", 304, 12.04);
      log("info", "request", { id: "3f0e", method: "GET", path: "/team", status: 200, ms: 1.2, cache: "miss" });
    });
    expect(lines).toHaveLength(3);
    const [a, b, c] = lines.map((l) => JSON.parse(l) as { time: string } & Record<string, unknown>);
    expect(a).toEqual({
      time: a.time,
      level: "info",
      msg: "request",
      id: "3f0c",
      method: "GET",
      path: '/post/a"b\\c',
      status: 200,
      ms: 0.5,
      cache: "hit",
    });
    expect(b).toEqual({ time: b.time, level: "info", msg: "request", id: "3f0d", method: "HEAD", path: "/", status: 304, ms: 12 });
    expect(Object.keys(a)).toEqual(Object.keys(c));
    expect(new Date(a.time).toISOString()).toBe(a.time);
  });

  it("follow LOG_LEVEL", async () => {
    process.env.LOG_LEVEL = "error";
    expect(await written(() => logRequest("1", "GET", "/", 200, 1, "hit"))).toEqual([]);
    process.env.LOG_LEVEL = "silent";
    expect(await written(() => logRequest("1", "GET", "/", 200, 1, "hit"))).toEqual([]);
  });

  it("carry the time to the millisecond, as toISOString writes it", async () => {
    process.env.LOG_LEVEL = "info";
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const times: string[] = [];
      for (const at of [
        "2026-11-26T23:59:59.007Z",
        "2026-11-26T23:59:59.070Z",
        "2026-11-26T23:59:59.999Z",
        "2026-11-27T00:00:00.000Z",
        "2026-11-27T00:00:00.123Z",
      ]) {
        vi.setSystemTime(new Date(at));
        const [line] = await written(() => logRequest(newRequestId(), "GET", "/", 200, 0.1, "hit"));
        times.push((JSON.parse(line) as { time: string }).time);
      }
      expect(times).toEqual([
        "2026-11-26T23:59:59.007Z",
        "2026-11-26T23:59:59.070Z",
        "2026-11-26T23:59:59.999Z",
        "2026-11-27T00:00:00.000Z",
        "2026-11-27T00:00:00.123Z",
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("request ids", () => {
  it("are distinct, URL- and header-safe, and begin with this process's random prefix", () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{12}-[0-9a-z]+$/);
    expect(new Set(ids.map((id) => id.slice(0, 12))).size).toBe(1);
  });
});

describe("jsonString", () => {
  it("writes every string as JSON.stringify does", () => {
    const samples = [
      "/",
      "/post/Cyber-what-now",
      '/a"b',
      "/a\\b",
      "/tab\there",
      "/nul\u0000",
      "/\u001f",
      "/caf\u00e9",
      "/\u00ff\u0080",
      "/emoji-\ud83d\ude00",
      "/lone-\ud800",
      "/lone-\udfff-end",
      "/\u2028\u2029",
      "/%22%5C",
      "hit",
      "",
    ];
    for (const text of samples) expect(jsonString(text)).toBe(JSON.stringify(text));
    for (let code = 0; code < 0x10000; code++) {
      const text = `/x${String.fromCharCode(code)}y`;
      if (jsonString(text) !== JSON.stringify(text)) throw new Error(`differs for U+${code.toString(16)}`);
    }
  });
});

import { describe, expect, it } from "vitest";
import { keepNextTickShape } from "./next-tick-shape.js";

describe("keepNextTickShape", () => {
  it("keeps an object of the shape Node gives every process.nextTick (else re-check server/next-tick-shape.js on this Node)", async () => {
    const kept = (await keepNextTickShape()) as Record<string | symbol, unknown>;
    expect(typeof kept).toBe("object");
    expect(typeof kept.callback).toBe("function");
    expect(Object.keys(kept)).toEqual(["callback", "args"]);
    const ids = Object.getOwnPropertySymbols(kept).map((s) => s.description);
    expect(ids).toEqual(expect.arrayContaining(["async_id_symbol", "trigger_async_id_symbol"]));
  });

  it("keeps the first one", async () => {
    expect(await keepNextTickShape()).toBe(await keepNextTickShape());
  });
});

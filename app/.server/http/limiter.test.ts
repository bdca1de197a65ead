import { describe, expect, it } from "vitest";
import { createLimiter } from "./limiter";

describe("limiter", () => {
  it("runs at most `max` at once and admits the rest in arrival order", async () => {
    const limiter = createLimiter(2);
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    const task = (n: number) =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(n);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      });
    await Promise.all([1, 2, 3, 4, 5, 6].map(task));
    expect(peak).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
    expect(limiter.active).toBe(0);
    expect(limiter.waiting).toBe(0);
  });

  it("releases a slot when the work fails, and a release twice counts once", async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    const release = await limiter.acquire();
    release();
    release();
    expect(limiter.active).toBe(0);
  });
});

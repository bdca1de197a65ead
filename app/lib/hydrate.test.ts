import { describe, expect, it } from "vitest";
import { HYDRATE, wantsHydration } from "./hydrate";

describe("wantsHydration", () => {
  it("is true only when a matched route asks for the browser's React", () => {
    expect(wantsHydration([{ handle: undefined }, { handle: HYDRATE }, { handle: {} }])).toBe(true);
    expect(wantsHydration([{ handle: undefined }, { handle: { hydrate: false } }, {}])).toBe(false);
    expect(wantsHydration([{ handle: { hydrate: "yes" } }])).toBe(false);
    expect(wantsHydration([])).toBe(false);
  });
});

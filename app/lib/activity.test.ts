import { describe, expect, it } from "vitest";
import { startOfLocalDay } from "./activity";

describe("startOfLocalDay", () => {
  it("gives midnight in Toronto (EST and EDT) as an instant", () => {
    expect(startOfLocalDay("2025-01-15")!.toISOString()).toBe("2025-01-15T05:00:00.000Z");
    expect(startOfLocalDay("2025-07-01")!.toISOString()).toBe("2025-07-01T04:00:00.000Z");
    // The day clocks go forward (2 a.m. -> 3 a.m.): midnight is still EST.
    expect(startOfLocalDay("2025-03-09")!.toISOString()).toBe("2025-03-09T05:00:00.000Z");
  });
  it("refuses what is not a real date", () => {
    for (const v of ["", "2025-02-30", "2025-13-01", "x", "2025-1-1", "0001-01-01"]) expect(startOfLocalDay(v)).toBeNull();
  });
});

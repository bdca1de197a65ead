import { describe, expect, it } from "vitest";
import { hoursSchema } from "./hours";
import { MSG } from "./messages";

describe("office hours form schema", () => {
  it("accepts free text and trims it", () => {
    expect(hoursSchema.parse({ start_time: " 8:30 ", end_time: "6:00 pm" })).toEqual({ start_time: "8:30", end_time: "6:00 pm" });
  });
  it("refuses blank values with the spec's message", () => {
    const r = hoursSchema.safeParse({ start_time: "  ", end_time: "" });
    expect(r.error!.issues.map((i) => i.message)).toEqual([MSG.hoursBlank, MSG.hoursBlank]);
    expect(hoursSchema.safeParse({}).error!.issues[0].message).toBe(MSG.hoursBlank);
  });
  it("caps the length", () => {
    expect(hoursSchema.safeParse({ start_time: "9".repeat(41), end_time: "5" }).success).toBe(false);
  });
});

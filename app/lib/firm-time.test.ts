import { describe, expect, it } from "vitest";
import { firmDateTimeText, parseFirmLocal, toFirmLocalInput } from "./firm-time";

describe("Toronto publish times", () => {
  it("stores a winter time as UTC−5 and a summer time as UTC−4", () => {
    expect(parseFirmLocal("2026-01-15T09:00", "Publish time")).toEqual({ ok: true, date: new Date("2026-01-15T14:00:00Z") });
    expect(parseFirmLocal("2026-07-15T09:00", "Publish time")).toEqual({ ok: true, date: new Date("2026-07-15T13:00:00Z") });
  });

  it("refuses a time in the hour skipped when clocks go forward, with a message", () => {
    const r = parseFirmLocal("2026-03-08T02:30", "Publish time");
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.message).toBe("Publish time: 02:30 does not exist on that day in Toronto (clocks go forward an hour). Choose another time.");
    // Either side of the gap is fine.
    expect(parseFirmLocal("2026-03-08T01:59", "Publish time")).toEqual({ ok: true, date: new Date("2026-03-08T06:59:00Z") });
    expect(parseFirmLocal("2026-03-08T03:00", "Publish time")).toEqual({ ok: true, date: new Date("2026-03-08T07:00:00Z") });
  });

  it("reads the repeated hour when clocks go back as its first occurrence and shows the zone", () => {
    const r = parseFirmLocal("2026-11-01T01:30", "Publish time");
    expect(r).toEqual({ ok: true, date: new Date("2026-11-01T05:30:00Z") });
    expect(firmDateTimeText(new Date("2026-11-01T05:30:00Z"))).toMatch(/1:30.*EDT$/);
    expect(firmDateTimeText(new Date("2026-11-01T06:30:00Z"))).toMatch(/1:30.*EST$/);
  });

  it("round-trips through the input value", () => {
    const d = new Date("2026-05-04T16:05:00Z");
    expect(toFirmLocalInput(d)).toBe("2026-05-04T12:05");
    expect(parseFirmLocal(toFirmLocalInput(d), "x")).toEqual({ ok: true, date: d });
  });

  it("refuses text that is not a date, and dates that do not exist", () => {
    expect(parseFirmLocal("tomorrow", "Publish time").ok).toBe(false);
    expect(parseFirmLocal("2026-02-30T10:00", "Publish time").ok).toBe(false);
  });
});

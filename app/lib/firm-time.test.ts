import path from "node:path";
import { build } from "vite";
import { describe, expect, it } from "vitest";
import { firmDateTimeText, parseFirmLocal, startOfZonedDay, toFirmLocalInput } from "./firm-time";

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

// The zone's rules come from @date-fns/tz (the runtime's IANA database): any zone works, not only Toronto.
describe("publish times in any IANA zone", () => {
  // Vancouver in 2025: the tz database (2026 releases) has British Columbia stay on UTC−7 after March 2026, so it has no repeated hour in 2026.
  it.each([
    ["America/Toronto", "2026-01-15T09:00", "2026-01-15T14:00:00Z"],
    ["America/Toronto", "2026-07-15T09:00", "2026-07-15T13:00:00Z"],
    ["America/Vancouver", "2025-01-15T09:00", "2025-01-15T17:00:00Z"],
    ["America/Vancouver", "2025-07-15T09:00", "2025-07-15T16:00:00Z"],
    ["Europe/London", "2026-01-15T09:00", "2026-01-15T09:00:00Z"],
    ["Europe/London", "2026-07-15T09:00", "2026-07-15T08:00:00Z"],
  ])("%s: stores %s (winter or summer) with the zone's offset, as %s", (zone, local, utc) => {
    expect(parseFirmLocal(local, "Publish time", zone)).toEqual({ ok: true, date: new Date(utc) });
  });

  // London's clocks go forward at 1:00 on the last Sunday of March and back at 2:00 on the last Sunday of October.
  it.each([
    [
      "America/Toronto",
      "2026-03-08T02:30",
      "Publish time: 02:30 does not exist on that day in Toronto (clocks go forward an hour). Choose another time.",
    ],
    [
      "America/Vancouver",
      "2025-03-09T02:30",
      "Publish time: 02:30 does not exist on that day in Vancouver (clocks go forward an hour). Choose another time.",
    ],
    [
      "Europe/London",
      "2026-03-29T01:30",
      "Publish time: 01:30 does not exist on that day in London (clocks go forward an hour). Choose another time.",
    ],
  ])("%s: refuses %s, in the skipped hour, with the message naming the place", (zone, local, message) => {
    expect(parseFirmLocal(local, "Publish time", zone)).toEqual({ ok: false, message });
  });

  const lastWords = (text: string) => text.split(" ").slice(-3).join(" ");

  it.each([
    ["America/Toronto", "2026-11-01T01:30", "2026-11-01T05:30:00Z", "EDT", "2026-11-01T06:30:00Z", "EST"],
    ["America/Vancouver", "2025-11-02T01:30", "2025-11-02T08:30:00Z", "PDT", "2025-11-02T09:30:00Z", "PST"],
    ["Europe/London", "2026-10-25T01:30", "2026-10-25T00:30:00Z", "GMT+1", "2026-10-25T01:30:00Z", "GMT"],
  ])(
    "%s: reads %s, the repeated hour, as its first occurrence, and shows both with their zone",
    (zone, local, first, firstZone, second, secondZone) => {
      expect(parseFirmLocal(local, "Publish time", zone)).toEqual({ ok: true, date: new Date(first) });
      expect(toFirmLocalInput(new Date(first), zone)).toBe(local);
      expect(toFirmLocalInput(new Date(second), zone)).toBe(local);
      expect(lastWords(firmDateTimeText(new Date(first), zone))).toBe(`1:30 a.m. ${firstZone}`);
      expect(lastWords(firmDateTimeText(new Date(second), zone))).toBe(`1:30 a.m. ${secondZone}`);
    },
  );

  describe("Asia/Kolkata (UTC+5:30, no daylight saving)", () => {
    it("stores times with the half-hour offset, all year", () => {
      expect(parseFirmLocal("2026-01-15T09:00", "Publish time", "Asia/Kolkata")).toEqual({
        ok: true,
        date: new Date("2026-01-15T03:30:00Z"),
      });
      expect(parseFirmLocal("2026-07-15T09:00", "Publish time", "Asia/Kolkata")).toEqual({
        ok: true,
        date: new Date("2026-07-15T03:30:00Z"),
      });
      expect(firmDateTimeText(new Date("2026-07-15T03:30:00Z"), "Asia/Kolkata")).toBe("Jul 15, 2026, 9:00 a.m. GMT+5:30");
    });

    it("has no skipped or repeated hour: the hours skipped and repeated elsewhere exist once", () => {
      expect(parseFirmLocal("2026-03-08T02:30", "Publish time", "Asia/Kolkata")).toEqual({
        ok: true,
        date: new Date("2026-03-07T21:00:00Z"),
      });
      expect(parseFirmLocal("2026-03-29T01:30", "Publish time", "Asia/Kolkata")).toEqual({
        ok: true,
        date: new Date("2026-03-28T20:00:00Z"),
      });
      expect(parseFirmLocal("2026-11-01T01:30", "Publish time", "Asia/Kolkata")).toEqual({
        ok: true,
        date: new Date("2026-10-31T20:00:00Z"),
      });
      // Every minute of a day round-trips.
      for (let minute = 0; minute < 24 * 60; minute += 15) {
        const at = new Date(Date.parse("2026-03-07T18:30:00Z") + minute * 60_000);
        expect(parseFirmLocal(toFirmLocalInput(at, "Asia/Kolkata"), "x", "Asia/Kolkata")).toEqual({ ok: true, date: at });
      }
    });
  });

  it("says how far clocks go forward where the change is not an hour (Lord Howe Island: 30 minutes)", () => {
    expect(parseFirmLocal("2026-10-04T02:15", "Publish time", "Australia/Lord_Howe")).toEqual({
      ok: false,
      message: "Publish time: 02:15 does not exist on that day in Lord Howe (clocks go forward 30 minutes). Choose another time.",
    });
    expect(parseFirmLocal("2026-10-04T02:30", "Publish time", "Australia/Lord_Howe")).toEqual({
      ok: true,
      date: new Date("2026-10-03T15:30:00Z"),
    });
  });
});

describe("the start of a day", () => {
  it("is midnight in the zone", () => {
    expect(startOfZonedDay("2026-03-08").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfZonedDay("2026-11-01").toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(startOfZonedDay("2026-03-29", "Europe/London").toISOString()).toBe("2026-03-29T00:00:00.000Z");
    expect(startOfZonedDay("2026-03-08", "Asia/Kolkata").toISOString()).toBe("2026-03-07T18:30:00.000Z");
  });

  it("is the moment clocks go forward where midnight is skipped (Santiago, September)", () => {
    const start = startOfZonedDay("2026-09-06", "America/Santiago");
    expect(start.toISOString()).toBe("2026-09-06T04:00:00.000Z");
    expect(toFirmLocalInput(start, "America/Santiago")).toBe("2026-09-06T01:00");
    expect(toFirmLocalInput(new Date(start.getTime() - 60_000), "America/Santiago")).toBe("2026-09-05T23:59");
  });

  it("refuses what is not a day", () => {
    expect(() => startOfZonedDay("2026-02-30")).toThrow("Not a day");
    expect(() => startOfZonedDay("soon")).toThrow("Not a day");
  });
});

describe("the public pages' script", () => {
  it("does not bundle the firm's clock or the time-zone library (public pages ship at most 6 KB of JavaScript)", async () => {
    // Built as the public enhancement module is built (Vite), with the modules it is made of listed.
    const root = path.resolve(import.meta.dirname, "../..");
    const result = await build({
      configFile: false,
      root,
      logLevel: "silent",
      resolve: { alias: { "~": path.join(root, "app") } },
      build: {
        write: false,
        copyPublicDir: false,
        modulePreload: false,
        rolldownOptions: { input: path.join(root, "app/enhance/main.ts") },
      },
    });
    const modules = (Array.isArray(result) ? result : [result])
      .flatMap((r) => ("output" in r ? r.output : []))
      .flatMap((o) => (o.type === "chunk" ? o.moduleIds : []))
      .map((id) => path.relative(root, id));
    expect(modules).toContain("app/enhance/main.ts");
    expect(modules.filter((id) => /firm-time|@date-fns/.test(id))).toEqual([]);
  });
});

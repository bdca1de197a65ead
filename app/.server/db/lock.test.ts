import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DatabaseStartError } from "./errors";
import { acquireDirLock } from "./lock";

describe("embedded database lock", () => {
  it("refuses a second opener while the first holds it, and frees it on release", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
    const child = spawn(process.execPath, ["-e", "setTimeout(()=>{}, 30000)"]);
    try {
      // A lock held by another live process is refused with a clear message.
      fs.writeFileSync(path.join(dir, "db.lock"), String(child.pid));
      expect(() => acquireDirLock(dir)).toThrow(DatabaseStartError);
      expect(() => acquireDirLock(dir)).toThrow(/in use by another process \(pid \d+\)/);
    } finally {
      child.kill();
    }
  });

  it("takes over a lock left by a process that has gone", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
    fs.writeFileSync(path.join(dir, "db.lock"), "999999");
    const lock = acquireDirLock(dir);
    expect(fs.readFileSync(path.join(dir, "db.lock"), "utf8")).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(dir, "db.lock"))).toBe(false);
  });
});

/**
 * PGlite has no lock across processes: two openers of one folder would
 * corrupt it. A lock file holding the owner's pid refuses a second process;
 * a lock left by a process that no longer runs is taken over.
 */
import fs from "node:fs";
import path from "node:path";
import { DatabaseStartError } from "./errors";

export type DirLock = { release(): void };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function acquireDirLock(dataDir: string): DirLock {
  const file = path.join(dataDir, "db.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(fs.readFileSync(file, "utf8").trim());
      if (owner && owner !== process.pid && alive(owner)) {
        throw new DatabaseStartError(
          `The embedded database in ${dataDir} is in use by another process (pid ${owner}). Stop it first (e.g. stop the server before running a script).`,
        );
      }
      fs.rmSync(file, { force: true }); // stale lock from a process that has gone
    }
  }
  throw new DatabaseStartError(`Could not take the lock ${file}.`);
}

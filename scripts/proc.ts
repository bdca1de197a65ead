/** What a benchmark reads of a process from /proc (Linux): its CPU time and resident memory. */
import fs from "node:fs";
import os from "node:os";

/** CPU time (user + system, ms) a process has used so far: the figure to trust on a shared machine. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
}

/** Resident memory (MB). */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

/** The machine's load averages (1, 5, 15 minutes), for a benchmark's report. */
export function loadAverageText(): string {
  return `load average now: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} (a shared machine moves these figures)`;
}

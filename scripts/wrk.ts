/**
 * Runs Debian's `wrk` with scripts/wrk-p95.lua (or another reporter printing
 * a `WRK_JSON {…}` line) and returns its report. The benchmarks' one load
 * generator: C, outside Node, so it does not cap what it measures.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export type Wrk = {
  requests: number;
  duration_us: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  p50_us: number;
  p95_us: number;
  p99_us: number;
};

export async function wrk(args: string[], env: Record<string, string> = {}): Promise<Wrk> {
  const { stdout } = await run("wrk", args, { env: { ...process.env, ...env }, maxBuffer: 1 << 20 });
  const line = stdout.split("\n").find((l) => l.startsWith("WRK_JSON "));
  if (!line) throw new Error(`wrk printed no report:\n${stdout}`);
  return JSON.parse(line.slice("WRK_JSON ".length)) as Wrk;
}

/** Requests that got no answer or one other than expected. */
export const errorsOf = (w: Wrk) => w.status + w.connect + w.read + w.write + w.timeout;

/** Requests a second of a run. */
export const rpsOf = (w: Wrk) => w.requests / (w.duration_us / 1e6);

/**
 * A benchmark's pairs: `count` times, one run `alone` and one `during` the
 * load under test, back to back, the order alternating (alone first in the
 * even pairs), each resolving to a throughput; returns during / alone per
 * pair. `during` gets the pair's index (from 0).
 */
export async function alternatingPairs(
  count: number,
  alone: () => Promise<number>,
  during: (pair: number) => Promise<number>,
): Promise<number[]> {
  const ratios: number[] = [];
  for (let pair = 0; pair < count; pair++) {
    if (pair % 2 === 0) {
      const before = await alone();
      ratios.push((await during(pair)) / before);
    } else {
      const first = await during(pair);
      ratios.push(first / (await alone()));
    }
  }
  return ratios;
}

/** The middle value (the upper one of an even count): the figure a benchmark's alternating pairs are judged by. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The beacon thread's main-thread side (decision 0023): starts
 * server/stats-beacon-thread.ts (built to build/server/stats-beacon-thread.js)
 * listening on STATS_BEACON_PORT, hands it the day's salts whenever they
 * change, and puts the events it hands over into the ingestion's buffer
 * (stats-ingest.ts), which writes them with the rest. If the thread stops
 * unexpectedly it is started again (the beacons it held, a fraction of a
 * second's, are lost; meanwhile nginx sends beacons to the instances' own
 * port, which answers them too).
 */
import { Worker } from "node:worker_threads";
import { log } from "../log";
import type { Pending } from "./stats-beacon";
import { acceptThreadEvents, watchSalts } from "./stats-ingest";

type FromThread =
  | { type: "listening"; port: number }
  | { type: "failed"; message: string }
  | { type: "events"; events: Pending[]; received: number }
  | { type: "stopped" };

const RESTART_MS = 1000;

const state = {
  worker: undefined as Worker | undefined,
  stopping: false,
  unwatch: undefined as (() => void) | undefined,
  port: 0,
};

/** Starts the thread on `port`; resolves once it listens (with the port), rejects with a message naming STATS_BEACON_PORT when it cannot. */
export function startBeaconThread(file: URL, options: { port: number; host: string }): Promise<number> {
  state.stopping = false;
  const worker = new Worker(file, {
    workerData: options,
    // Its own small heap: a second's beacons at a time.
    resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 96 },
  });
  state.worker = worker;
  state.unwatch?.();
  state.unwatch = watchSalts((salts) => worker.postMessage({ type: "salts", salts: [...salts] }));
  return new Promise((resolve, reject) => {
    let listening = false;
    worker.on("message", (message: FromThread) => {
      if (message.type === "events") acceptThreadEvents(message.events, message.received);
      else if (message.type === "listening") {
        listening = true;
        state.port = message.port;
        resolve(message.port);
      } else if (message.type === "failed") {
        if (!listening) reject(new Error(message.message));
        else log("error", `beacon thread: ${message.message}`);
        void worker.terminate();
      }
    });
    worker.on("error", (error: Error) => {
      log("error", "beacon thread: unexpected error", { error: error.message });
      if (!listening) reject(new Error(`STATS_BEACON_PORT ${options.port}: the beacon thread did not start (${error.message})`));
    });
    worker.on("exit", (code) => {
      if (state.worker !== worker) return;
      state.worker = undefined;
      if (state.stopping || !listening) return;
      log("error", "beacon thread stopped unexpectedly; starting it again", { code });
      setTimeout(() => {
        if (state.stopping || state.worker) return;
        startBeaconThread(file, { ...options, port: state.port || options.port }).catch((error: Error) =>
          log("error", "beacon thread: could not start again", { error: error.message }),
        );
      }, RESTART_MS).unref();
    });
  });
}

/** At shutdown, before the ingestion's last write: the thread stops listening, answers what is in flight and hands everything over. */
export async function stopBeaconThread(): Promise<void> {
  state.stopping = true;
  state.unwatch?.();
  state.unwatch = undefined;
  const worker = state.worker;
  if (!worker) return;
  await new Promise<void>((resolve) => {
    const timeout = setTimeout(resolve, 4000);
    worker.on("message", (message: FromThread) => {
      if (message.type === "stopped") {
        clearTimeout(timeout);
        resolve();
      }
    });
    worker.on("exit", () => {
      clearTimeout(timeout);
      resolve();
    });
    worker.postMessage({ type: "stop" });
  });
  state.worker = undefined;
  await worker.terminate();
}

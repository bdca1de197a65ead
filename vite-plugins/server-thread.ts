/**
 * Adds a worker thread's entry to the server build under a fixed name
 * (build/server/<name>.js) beside React Router's index.js, which names every
 * entry of the server build "index.js". server.js starts the thread from that
 * file (the visit-statistics beacons' listener, decision 0023).
 */
import path from "node:path";
import type { Plugin } from "vite";

export function serverThread(entry: string, name: string): Plugin {
  return {
    name: "firm:server-thread",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    buildStart() {
      this.emitFile({ type: "chunk", id: path.resolve(entry), fileName: `${name}.js` });
    },
  };
}

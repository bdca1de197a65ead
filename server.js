// The Node entry: start-up, the HTTP server (node:http) and shutdown. In
// production it runs the Vite-built bundle (build/server/index.js); in
// development it loads server/app.ts through Vite with hot reload. See
// ARCHITECTURE.md.
import http from "node:http";
import { missingNodeArgs } from "./server/node-args.js";
import { nodeVersionProblem } from "./server/node-version.js";

const DEV = process.env.NODE_ENV !== "production";
// After SIGTERM readiness answers 503 at once, but the server keeps accepting
// until no connection has arrived for QUIET_MS and nothing is in flight (at
// most DRAIN_MAX_MS), so connections already queued in the kernel are served,
// not reset. Then it stops listening, lets open requests finish, closes the
// database and exits 0 — well within 10 s.
const QUIET_MS = 300;
const DRAIN_MAX_MS = Number(process.env.SHUTDOWN_DRAIN_MS ?? 5000);
const SHUTDOWN_GRACE_MS = 3000;

/** One JSON log line, as the app's log() writes them (its module is not loaded yet when start-up fails). */
function logLine(level, msg, fields = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}

function fail(message) {
  logLine("error", message);
  process.exit(1);
}

const tooOld = nodeVersionProblem();
if (tooOld) fail(tooOld);

let vite;
let mod;
try {
  if (DEV) {
    const { createServer } = await import("vite");
    vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
    mod = await vite.ssrLoadModule("./server/app.ts");
  } else {
    const buildDir = process.env.BUILD_DIR ?? "build";
    mod = await import(`./${buildDir}/server/index.js`).catch((error) => {
      if (error.code === "ERR_MODULE_NOT_FOUND")
        fail("The production build is missing: run `npm run build` first (or `npm start`, which builds).");
      throw error;
    });
  }
} catch (error) {
  fail(error.message.split("\n")[0]);
}

let env;
try {
  env = mod.getEnv();
  await mod.startServices(env);
} catch (error) {
  fail(error.message.split("\n")[0]);
}

let handler;
if (DEV) {
  // Vite's own middleware first (the browser's modules, hot reload), then the app of the latest module.
  const listeners = new WeakMap(); // one listener per reloaded module
  handler = (req, res) => {
    vite.middlewares(req, res, async () => {
      try {
        const fresh = await vite.ssrLoadModule("./server/app.ts");
        if (!listeners.has(fresh)) listeners.set(fresh, fresh.createDevelopmentListener());
        listeners.get(fresh)(req, res);
      } catch (error) {
        vite.ssrFixStacktrace(error);
        logLine("error", error.message);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" }).end(error.stack);
      }
    });
  };
} else {
  handler = mod.createProductionListener();
}

let lastConnectionAt = 0;
let inFlight = 0;
// Requests in flight, for the shutdown drain. One listener and one shared close callback (a second
// "request" listener makes every emit copy the listener list). A cache hit is answered before the
// handler returns: it is not counted and gets no listener (this is on the path of every hit).
const finished = () => inFlight--;
const server = http.createServer((req, res) => {
  handler(req, res);
  if (!res.writableEnded) {
    inFlight++;
    res.on("close", finished);
  }
});
server.keepAliveTimeout = 5000;
server.on("connection", () => {
  lastConnectionAt = Date.now();
});
server.on("error", (error) => {
  if (error.code === "EADDRINUSE") fail(`PORT ${env.PORT}: another program listens there: stop it or choose another port`);
  fail(error.message);
});
server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  logLine("info", `listening on http://localhost:${address.port}`, { port: address.port, mode: DEV ? "development" : "production" });
  const missing = DEV ? [] : missingNodeArgs();
  if (missing.length > 0) {
    logLine(
      "warn",
      `node was started without ${missing.join(" ")}: page-cache hits cost more CPU; start it with \`npm run serve\` or add ${missing.join(" ")} before server.js (docs/decisions/0018-young-generation.md)`,
    );
  }
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  mod.markShuttingDown();
  logLine("info", `${signal}: shutting down`);
  const force = setTimeout(
    () => {
      logLine("error", "shutdown took too long; exiting");
      process.exit(1);
    },
    DRAIN_MAX_MS + SHUTDOWN_GRACE_MS + 1500,
  );
  force.unref();
  server.prependListener("request", (_req, res) => res.setHeader("Connection", "close"));
  const started = Date.now();
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  while (Date.now() - started < DRAIN_MAX_MS) {
    if (inFlight === 0 && Date.now() - Math.max(lastConnectionAt, started) >= QUIET_MS) break;
    await sleep(25);
  }
  await new Promise((resolve) => {
    server.close(resolve);
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  });
  await vite?.close();
  await mod.stopServices().catch((error) => console.error(error.message));
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));

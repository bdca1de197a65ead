import fs from "node:fs";
import { startServer, type RunningServer } from "./support";

let server: RunningServer | undefined;

/** One production server with demo content for the browser tests that share it. */
export async function setup() {
  if (!fs.existsSync(`${process.env.BUILD_DIR ?? "build"}/server/index.js`))
    throw new Error("Run `npm run build` before the browser tests.");
  server = await startServer();
  process.env.E2E_BASE_URL = server.url;
}

export async function teardown() {
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
}

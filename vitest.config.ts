import path from "node:path";
import { defineConfig } from "vitest/config";
import { publicEnhancement } from "./vite-plugins/public-enhancement.ts";

export default defineConfig({
  // app/root.tsx imports the public pages' script's address (tests/support/route-call.ts runs the root's middleware).
  plugins: [publicEnhancement()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    // The migrated PGlite database, made once for every test file (none on PostgreSQL).
    globalSetup: ["tests/support/pglite-template.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    // PASSWORD_HASH_COST: staff passwords hashed at the test cost (decision 0029; password.test.ts checks the standard one).
    env: { LOG_LEVEL: "silent", NODE_ENV: "test", PASSWORD_HASH_COST: "test" },
  },
});

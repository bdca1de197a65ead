import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
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
    env: { LOG_LEVEL: "silent", NODE_ENV: "test" },
  },
});

import path from "node:path";
import { defineConfig } from "vitest/config";

/** Browser tests: Chromium (Debian's) against the built production server. */
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    environment: "node",
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: "forks",
  },
});

import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { publicEnhancement } from "./vite-plugins/public-enhancement.ts";

/** Files that measure their own process's memory, so they run in a process of their own. */
const FRESH_PROCESS_FILES = ["tests/integration/uploads.test.ts"];

const project = {
  // app/root.tsx imports the public pages' script's address (tests/support/route-call.ts runs the root's middleware).
  plugins: [publicEnhancement()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
};
const options = {
  environment: "node",
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: "forks" as const,
  setupFiles: ["tests/support/each-file.ts"],
  // PASSWORD_HASH_COST: staff passwords hashed at the test cost (decision 0029; password.test.ts checks the standard one).
  env: { LOG_LEVEL: "silent", NODE_ENV: "test", PASSWORD_HASH_COST: "test" },
};

export default defineConfig({
  resolve: project.resolve,
  test: {
    // The migrated PGlite database, made once for every test file (none on PostgreSQL).
    globalSetup: ["tests/support/pglite-template.ts"],
    maxWorkers: 2,
    projects: [
      {
        ...project,
        test: {
          ...options,
          name: "shared-modules",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...FRESH_PROCESS_FILES],
          // The files of a worker share its modules instead of loading the app again for each (decision 0030):
          // the integration files take about half the time. Each file still opens its own database
          // (tests/support/database.ts), and each-file.ts clears the environment's overrides a file before it left.
          isolate: false,
        },
      },
      { ...project, test: { ...options, name: "fresh-process", include: FRESH_PROCESS_FILES } },
    ],
  },
});

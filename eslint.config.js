// ESLint (flat config): typescript-eslint's type-checked recommended rules, React hooks,
// jsx-a11y and the layers' import boundaries (eslint-plugin-import-x) on the whole tree.
// `npm run lint` (zero warnings) runs in .ci/run. A rule turned off or down says why, next to it.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build*/", "data/", "bench-results/", "node_modules/", ".react-router/", "drizzle/", "public/", "coverage/"] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  reactHooks.configs.flat["recommended-latest"],
  {
    // The layers (ARCHITECTURE.md). Imports are resolved as TypeScript resolves them (the `~` alias
    // included), so a relative path cannot slip past a rule.
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      // No import cycles (type-only imports do not count: they vanish from the built code).
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            {
              // Code that runs in the browser, or is shared with it, never reaches server-only code.
              target: ["./app/lib", "./app/components", "./app/enhance", "./app/config"],
              from: "./app/.server",
              message: "Shared and browser code may not import server-only code (app/.server): move what both need to app/lib.",
            },
            {
              // Server-only code serves the routes; it never renders the UI or calls a route module.
              target: "./app/.server",
              from: ["./app/components", "./app/routes"],
              message: "app/.server may not import components or routes: move shared data to app/lib.",
            },
            {
              // The HTTP server (server/) reaches the app only through its public entry points: shared pure code
              // (app/lib), the environment, the log, the database client and its change announcements, the HTTP
              // layer (app/.server/http: start-up and shutdown, request context, route table, headers, admission,
              // the unavailable page), the page cache, the redirects and the visit-statistics beacons it answers
              // before React Router (and the 404 log it counts), and the pictures and files it serves (images,
              // storage, event recordings). React Router's build brings the routes.
              target: "./server",
              from: "./app",
              except: [
                "./lib",
                "./.server/env.ts",
                "./.server/log.ts",
                "./.server/db/client.ts",
                "./.server/db/content-events.ts",
                "./.server/http",
                "./.server/page-cache",
                "./.server/statistics",
                "./.server/redirects/engine.ts",
                "./.server/redirects/not-found.ts",
                "./.server/pictures/images.ts",
                "./.server/storage/storage.ts",
                "./.server/events/recordings.ts",
              ],
              message: "server/ imports only the app's public entry points (eslint.config.js, ARCHITECTURE.md).",
            },
          ],
        },
      ],
    },
  },
  jsxA11y.flatConfigs.recommended,
  {
    rules: {
      // Unused names are errors, except the ones a signature needs and marks with a leading underscore.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // React Router's control flow throws answers, not errors: `throw redirect(…)`, `throw data(…, { status })`,
      // `throw new Response(…)` end a loader or action with that answer. Everything else must throw an Error.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "react-router", name: ["DataWithResponseInit", "UNSAFE_DataWithResponseInit"] },
          ],
        },
      ],
    },
  },
  {
    // Vitest's asymmetric matchers (expect.any, expect.stringMatching, expect.objectContaining…) are typed `any`
    // by design, so that they fit any expected value: assigning them inside an expected object is not unsafe.
    files: ["**/*.test.ts", "**/*.test.tsx", "tests/**/*.ts"],
    rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
  },
  {
    // Plain JavaScript (server.js, scripts run by node directly): no type information to check against.
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    extends: [tseslint.configs.disableTypeChecked],
  },
);

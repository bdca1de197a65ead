// ESLint (flat config): typescript-eslint's type-checked recommended rules, React hooks and
// jsx-a11y on the whole tree. `npm run lint` (zero warnings) runs in .ci/run. A rule turned off
// or down says why, next to it.
import js from "@eslint/js";
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

import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import path from "node:path";

/**
 * Browser chunks: the framework in one file and the public site's shared
 * components in another, instead of a dozen files of a few hundred bytes
 * each (on HTTP/1.1 each costs a round trip; see docs/performance.md).
 * Dashboard-only code (forms, editor, dialogs) stays in its own chunks.
 */
const clientChunks = {
  groups: [
    { name: "framework", test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 20 },
    { name: "public", test: /[\\/]app[\\/](components[\\/](public[\\/]|error-page)|lib[\\/][^\\/]+$)/, priority: 10 },
  ],
};

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    rolldownOptions: isSsrBuild ? { input: "./server/app.ts" } : { output: { codeSplitting: clientChunks } },
  },
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  plugins: [tailwindcss(), reactRouter()],
}));

import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import path from "node:path";
import { precompress } from "./vite-plugins/precompress.ts";
import { publicEnhancement } from "./vite-plugins/public-enhancement.ts";

/**
 * Browser chunks of the dashboard: the framework in one file instead of a
 * dozen files of a few hundred bytes each (on HTTP/1.1 each costs a round
 * trip). Public pages load none of it: their one script is built on its own
 * (vite-plugins/public-enhancement.ts).
 */
const clientChunks = {
  groups: [
    {
      name: "framework",
      test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
      priority: 20,
    },
  ],
};

export default defineConfig({
  environments: {
    // The server bundle's entry is our HTTP application (server/app.ts), which imports React Router's server build.
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
    client: { build: { rolldownOptions: { output: { codeSplitting: clientChunks } } } },
  },
  resolve: { alias: [{ find: "~", replacement: path.resolve(import.meta.dirname, "app") }] },
  plugins: [tailwindcss(), reactRouter(), publicEnhancement(), precompress()],
});

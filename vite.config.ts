import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import path from "node:path";
import { publicEnhancement } from "./vite-plugins/public-enhancement.ts";

/**
 * Browser chunks of the dashboard: the framework in one file instead of a
 * dozen files of a few hundred bytes each (on HTTP/1.1 each costs a round
 * trip). Public pages load none of it: their one script is built on its own
 * (vite-plugins/public-enhancement.ts).
 */
const clientChunks = {
  groups: [{ name: "framework", test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 20 }],
};

/**
 * The server bundle runs React Router's production build: its package exports
 * only the development build to Node (extra checks and warnings on every
 * render). React Router and its Node adapters are bundled, with the package
 * resolved to its dist/production files (docs/performance.md).
 */
const reactRouterProduction = path.resolve(import.meta.dirname, "node_modules/react-router/dist/production/index.mjs");

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    rolldownOptions: isSsrBuild ? { input: "./server/app.ts" } : { output: { codeSplitting: clientChunks } },
  },
  resolve: {
    alias: [
      { find: "~", replacement: path.resolve(import.meta.dirname, "app") },
      ...(isSsrBuild ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  ssr: isSsrBuild ? { noExternal: ["react-router", "@react-router/node", "@react-router/express"] } : undefined,
  plugins: [tailwindcss(), reactRouter(), publicEnhancement()],
}));

import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import path from "node:path";
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

/**
 * The server bundle runs React Router's production build: its package exports
 * only the development build to Node (extra checks and warnings on every
 * render). React Router and its Node adapters are bundled, with the package
 * resolved to its dist/production files (docs/performance.md).
 */
const reactRouterProduction = path.resolve(import.meta.dirname, "node_modules/react-router/dist/production/index.mjs");

/**
 * React DOM's server renderer, bundled into the server build as its production
 * file, with a synchronous stand-in for the AsyncLocalStorage it would
 * otherwise turn on for the whole process at the first render
 * (server/react-request-storage.ts; docs/performance.md). `react` and
 * `react-dom` themselves stay external (one instance for everything).
 */
const reactDomServerProduction = path.resolve(import.meta.dirname, "node_modules/react-dom/cjs/react-dom-server.node.production.js");
const reactRequestStorage = path.resolve(import.meta.dirname, "server/react-request-storage.ts");
function reactDomServerWithoutAsyncHooks(): Plugin {
  return {
    name: "react-dom-server-without-async-hooks",
    enforce: "pre",
    apply: (_config, env) => Boolean(env.isSsrBuild),
    resolveId(source, importer) {
      if (source === "react-dom/server") return reactDomServerProduction;
      if ((source === "async_hooks" || source === "node:async_hooks") && importer === reactDomServerProduction) return reactRequestStorage;
      return undefined;
    },
  };
}

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
  plugins: [reactDomServerWithoutAsyncHooks(), tailwindcss(), reactRouter(), publicEnhancement()],
}));

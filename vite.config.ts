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

/**
 * Packages the server bundle leaves to Node: native code (sharp), files read beside the package's own code
 * (PGlite's WebAssembly and data, PDFKit's fonts), React (one copy with react-dom), PostgreSQL's driver,
 * Prettier (large; React Email's pretty printing imports it) and the S3 client (loaded only with a bucket).
 * Everything else is bundled: Node's module loader spends ~10 ms of CPU a file on a busy 2-core machine, and
 * the server's ~1,200 files of packages took ~4 s of CPU at every start, against ~1 s bundled (decision 0031).
 */
const serverExternal = ["sharp", "@electric-sql/pglite", "pdfkit", "pg", "react", "react-dom", "prettier", "@aws-sdk/client-s3"];

export default defineConfig(({ command }) => ({
  environments: {
    // The server bundle's entry is our HTTP application (server/app.ts), which imports React Router's server build.
    ssr: {
      build: { rolldownOptions: { input: "./server/app.ts" } },
      // Bundled only when built: in development Vite loads the packages as they are.
      ...(command === "build" ? { resolve: { noExternal: true, external: serverExternal } } : {}),
    },
    client: { build: { rolldownOptions: { output: { codeSplitting: clientChunks } } } },
  },
  resolve: { alias: [{ find: "~", replacement: path.resolve(import.meta.dirname, "app") }] },
  plugins: [tailwindcss(), reactRouter(), publicEnhancement(), precompress()],
}));

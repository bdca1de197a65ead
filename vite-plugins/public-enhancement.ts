/**
 * The public pages' one script (app/enhance/main.ts), built by Vite on its
 * own: one file, minified, named by its content hash, that shares no chunk
 * with the dashboard's React app (whatever else imports the same helpers).
 *
 * `import enhanceUrl from "virtual:public-enhancement"` gives its URL:
 * `/assets/enhance-<hash>.js` in both builds (the client build writes the
 * file; the server build computes the same name from the same input), and
 * the source path in development, where Vite serves it.
 */
import path from "node:path";
import { build, type Plugin } from "vite";

const ENTRY = "app/enhance/main.ts";
const VIRTUAL = "virtual:public-enhancement";

type Built = { fileName: string; code: string };

async function bundle(root: string): Promise<Built> {
  const result = await build({
    configFile: false,
    root,
    logLevel: "warn",
    resolve: { alias: { "~": path.resolve(root, "app") } },
    build: {
      write: false,
      copyPublicDir: false,
      modulePreload: false,
      rolldownOptions: {
        input: path.resolve(root, ENTRY),
        output: { format: "es", entryFileNames: "assets/enhance-[hash].js" },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ("output" in r ? r.output : []));
  const chunks = outputs.filter((o) => o.type === "chunk");
  if (chunks.length !== 1 || outputs.length !== 1) {
    throw new Error(
      `${ENTRY} must build into one script file (got ${outputs.map((o) => o.fileName).join(", ")}): it may not import CSS or split.`,
    );
  }
  return { fileName: chunks[0].fileName, code: chunks[0].type === "chunk" ? chunks[0].code : "" };
}

export function publicEnhancement(): Plugin {
  let command: "build" | "serve" = "build";
  let root = process.cwd();
  let built: Promise<Built> | undefined;
  return {
    name: "public-enhancement",
    configResolved(config) {
      command = config.command;
      root = config.root;
    },
    resolveId(id) {
      return id === VIRTUAL ? `\0${VIRTUAL}` : undefined;
    },
    async load(id) {
      if (id !== `\0${VIRTUAL}`) return;
      if (command === "serve") return `export default ${JSON.stringify(`/${ENTRY}`)};`;
      built ??= bundle(root);
      return `export default ${JSON.stringify(`/${(await built).fileName}`)};`;
    },
    async generateBundle() {
      // Written once, into the browser's files (the server build only needs its name).
      if (command !== "build" || this.environment.name !== "client") return;
      built ??= bundle(root);
      const { fileName, code } = await built;
      this.emitFile({ type: "asset", fileName, source: code });
    },
  };
}

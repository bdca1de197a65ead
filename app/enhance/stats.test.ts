/**
 * The visit statistics' beacon stays small: built on its own as the public
 * enhancement module is built (Vite, minified; the helpers it shares with the
 * other behaviours counted too), it adds at most 0.6 KB gzip to the public
 * pages' one script (issue 32). The whole script's 6 KB budget is checked by
 * tests/e2e/public-pages.test.ts and `npm run bench`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const BEACON_BUDGET_BYTES = 600;

/** `module`'s function `name` called as main.ts calls it, built and minified alone. */
async function minified(module: string, name: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-size-"));
  const entry = path.join(dir, "entry.ts");
  fs.writeFileSync(entry, `import { ${name} } from ${JSON.stringify(path.join(ROOT, module))};\n${name}();\n`);
  const result = await build({
    configFile: false,
    root: ROOT,
    logLevel: "silent",
    resolve: { alias: { "~": path.join(ROOT, "app") } },
    build: {
      write: false,
      copyPublicDir: false,
      modulePreload: false,
      rolldownOptions: { input: entry, output: { format: "es" } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ("output" in r ? r.output : []));
  fs.rmSync(dir, { recursive: true, force: true });
  return outputs.map((o) => (o.type === "chunk" ? o.code : "")).join("");
}

describe("the statistics beacon", () => {
  it(`adds at most ${BEACON_BUDGET_BYTES} bytes gzip to the enhancement module, and posts to this site only`, async () => {
    const code = await minified("app/enhance/stats.ts", "enhanceStats");
    const size = gzipSync(code, { level: 9 }).length;
    expect(size).toBeLessThanOrEqual(BEACON_BUDGET_BYTES);
    // It talks to this site only.
    expect(code).toMatch(/["'`]\/stats\/beacon["'`]/);
    expect(code).not.toMatch(/https?:\/\//);
  });
});

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside each compressible
 * file of the browser build (scripts, styles, SVG, JSON…), once, at build
 * time. The server's static-file handler (sirv, server/static-files.ts)
 * sends the copy the browser accepts, so no asset is compressed per request.
 */
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|webmanifest|txt|xml|html|map)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

export async function precompressDirectory(dir: string): Promise<number> {
  const files = filesUnder(dir).filter((file) => COMPRESSIBLE.test(file) && fs.statSync(file).size >= MIN_BYTES);
  await Promise.all(
    files.map(async (file) => {
      const bytes = fs.readFileSync(file);
      const [br, gz] = await Promise.all([
        brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        gzip(bytes, { level: 9 }),
      ]);
      fs.writeFileSync(`${file}.br`, br);
      fs.writeFileSync(`${file}.gz`, gz);
    }),
  );
  return files.length;
}

export function precompress(): Plugin {
  return {
    name: "precompress",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async closeBundle() {
      const { root, build } = this.environment.config;
      const outDir = path.resolve(root, build.outDir);
      if (fs.existsSync(outDir)) await precompressDirectory(outDir);
    },
  };
}

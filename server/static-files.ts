/**
 * The browser build's files (build/client): scripts, styles, fonts, the
 * favicon, with sirv. Hashed files under /assets/ are kept for a year
 * (immutable); the rest for an hour. Each compressible file has a brotli and
 * a gzip copy made at build time (vite-plugins/precompress.ts), sent when the
 * browser accepts it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import sirv from "sirv";

const YEAR = "public, max-age=31536000, immutable";
const HOUR = "public, max-age=3600";

export type StaticFiles = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export function staticFiles(buildDir = process.env.BUILD_DIR ?? "build"): StaticFiles {
  return sirv(path.resolve(buildDir, "client"), {
    etag: true,
    brotli: true,
    gzip: true,
    extensions: [],
    setHeaders(res, pathname) {
      res.setHeader("Cache-Control", pathname.startsWith("/assets/") ? YEAR : HOUR);
      // sirv's type table has no entry for .ico (the favicon).
      if (pathname.endsWith(".ico")) res.setHeader("Content-Type", "image/x-icon");
    },
  });
}

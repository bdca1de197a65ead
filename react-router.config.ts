import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets parallel work (or CI) build side by side; default ./build.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // A page sent with `Referrer-Policy: no-referrer` (the confirmation and preferences links) posts its form
  // with `Origin: null`, which React Router's own origin check would answer 400 (issue 42). The server's
  // cross-site refusal (server/same-origin.ts) runs before React Router for every write and decides which
  // of those are the site's own (`Sec-Fetch-Site: same-origin`, or a route that declares `tokenInPath`).
  allowedActionOrigins: ["null"],
} satisfies Config;

import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets parallel work (or CI) build side by side; default ./build.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;

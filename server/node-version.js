// The Node.js version the site needs, read from package.json's `engines.node`
// (">=MAJOR.MINOR"): server.js stops with one line naming it when started with
// an older one. `npm start` and `npm test` run the project's own Node 24
// (the `node` package, node_modules/.bin/node; decision 0019), whatever the
// machine's own node is.
import fs from "node:fs";

const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** The minimum version, e.g. "24.11". */
export const REQUIRED_NODE = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines.node)[1];

function older(version, required) {
  const a = version.split(".").map(Number);
  const b = required.split(".").map(Number);
  for (let i = 0; i < b.length; i++) if ((a[i] ?? 0) !== b[i]) return (a[i] ?? 0) < b[i];
  return false;
}

/** One line saying what to do when `version` is older than the site needs; null when it will do. */
export function nodeVersionProblem(version = process.versions.node) {
  if (!older(version, REQUIRED_NODE)) return null;
  return `This site needs Node.js ${REQUIRED_NODE} or later; this is Node.js ${version}. Start it with \`npm start\` (or \`npm run serve\`), which use the project's own Node.js from node_modules/.bin, or install Node.js 24 LTS.`;
}

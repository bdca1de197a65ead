// The arguments node is given before server.js in production (decision 0018):
// a young generation twice V8's default, so a cache hit's short-lived objects
// die young even after V8 has decided to pretenure some of the sites that make them.
// package.json's `start` and `serve`, deploy/systemd/harrow-kline.service and the
// tests' startServer pass them; server/node-args.test.ts keeps those in step, and
// server.js says at start-up when a production process was started without them.
export const PRODUCTION_NODE_ARGS = ["--max-semi-space-size=32"];

/**
 * The production arguments whose flag is not on this process's command line or in
 * NODE_OPTIONS (V8 accepts `_` for `-` in a flag's name; a flag given with another
 * value counts as given: someone chose it).
 */
export function missingNodeArgs(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? "") {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.split("=")[0].replaceAll("_", "-"));
  return PRODUCTION_NODE_ARGS.filter((arg) => !given.includes(arg.split("=")[0]));
}

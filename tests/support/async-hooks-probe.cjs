// Loaded into a server under test (`node --require`): on SIGUSR2 it writes to stderr how many
// AsyncLocalStorage instances have async_hooks on in that process ("[async-hooks-probe] 2").
// Node 20 and 22 propagate each enabled AsyncLocalStorage's store to every new async resource
// as an own symbol property described "kResourceStore": a fresh Timeout has one per enabled
// instance. (tests/e2e/hit-path.test.ts also checks that the probe does see them, so a Node that
// works otherwise fails that test instead of passing it vacuously.)
const { executionAsyncResource } = require("node:async_hooks");

process.on("SIGUSR2", () => {
  setTimeout(() => {
    const timeout = executionAsyncResource();
    const enabled = Object.getOwnPropertySymbols(timeout).filter((symbol) => symbol.description === "kResourceStore").length;
    process.stderr.write(`[async-hooks-probe] ${enabled}\n`);
  }, 0);
});
